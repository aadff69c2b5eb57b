"""A mitmproxy addon: connect to a lab host's loopback address, not to what its name resolves to.

The lab's names (api.lab.test, ...) resolve nowhere on the test machines, and /etc/hosts is not
the tests' to edit. With `--set lab_hosts=api.lab.test=127.0.0.2[,NAME=ADDRESS...]`, a connection
to NAME:PORT goes to ADDRESS:PORT instead, the TLS name (SNI, and the name the certificate is
checked against) staying NAME. The flows keep the URL the client asked for, and a HAR export
(`hardump`) records ADDRESS as the entry's serverIPAddress, as a capture of a real app would.
Used by Tests/LabTestSupport/MitmproxyCapture.swift.
"""

from mitmproxy import ctx
from mitmproxy.addonmanager import Loader
from mitmproxy.proxy.server_hooks import ServerConnectionHookData


def load(loader: Loader) -> None:
    loader.add_option("lab_hosts", str, "", "NAME=ADDRESS[,NAME=ADDRESS...]: where NAME's connections go")


def server_connect(data: ServerConnectionHookData) -> None:
    hosts = dict(pair.split("=", 1) for pair in ctx.options.lab_hosts.split(",") if pair)
    if data.server.address is None:
        return
    name, port = data.server.address
    if name in hosts:
        data.server.sni = data.server.sni or name
        data.server.address = (hosts[name], port)
