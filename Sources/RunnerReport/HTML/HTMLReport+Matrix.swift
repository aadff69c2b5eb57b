extension HTMLReport {
    /// A scenario's strategy × IP matrix: a row per IP, a column per strategy, each in the
    /// order its first result came in the plan; a cell per result, coloured by how it came out
    /// and linking to its details. A combination the scenario did not run is an empty cell, and
    /// the results that pinned no IP (`system`, a host that did not resolve) share a row.
    /// Rows per IP, not columns: `ips: all` on a host with many addresses grows the table down,
    /// where a page has room, not across. An IP some population's SDK picks (`sdk:`) has a ★
    /// by it, its title naming who picks it and why.
    static func writeMatrix(_ cells: [HTMLMatrixCell], into html: inout HTMLWriter) {
        var strategies: [String] = []
        var ips: [String?] = []
        for cell in cells {
            if !strategies.contains(cell.strategy) { strategies.append(cell.strategy) }
            if !ips.contains(cell.ip) { ips.append(cell.ip) }
        }
        // Cells by (row, column); a scenario has a few strategies, so a row's cells are few.
        var grid: [[[HTMLMatrixCell]]] = Array(repeating: Array(repeating: [], count: strategies.count), count: ips.count)
        var rowOfIP: [String?: Int] = [:]
        for (row, ip) in ips.enumerated() { rowOfIP[ip] = row }
        for cell in cells {
            guard let row = rowOfIP[cell.ip], let column = strategies.firstIndex(of: cell.strategy) else { continue }
            grid[row][column].append(cell)
        }
        html.raw("<table class=\"matrix\">\n<thead><tr><th scope=\"col\">IP</th>")
        for strategy in strategies {
            html.raw("<th scope=\"col\">")
            html.text(strategy)
            html.raw("</th>")
        }
        html.raw("</tr></thead>\n<tbody>\n")
        for (row, ip) in ips.enumerated() {
            let picks = grid[row].joined().reduce(into: [HTMLMatrixCell.Pick]()) { picks, cell in
                for pick in cell.picks where !picks.contains(pick) { picks.append(pick) }
            }
            if picks.isEmpty {
                html.raw("<tr><th scope=\"row\">")
            } else {
                html.raw("<tr><th scope=\"row\" class=\"pick\" title=\"picked by ")
                for (index, pick) in picks.enumerated() {
                    if index > 0 { html.raw("; ") }
                    html.attributeText(pick.client)
                    html.raw(": ")
                    html.attributeText(pick.reason)
                }
                html.raw("\">")
            }
            if let ip { html.text(ip) } else { html.raw("no IP pinned") }
            if !picks.isEmpty { html.raw(" <span class=\"pick-mark\">&#9733;</span>") }
            html.raw("</th>")
            for column in strategies.indices {
                let results = grid[row][column]
                guard !results.isEmpty else {
                    html.raw("<td class=\"none\" title=\"not run\"></td>")
                    continue
                }
                html.raw("<td>")
                for cell in results { writeCell(cell, into: &html) }
                html.raw("</td>")
            }
            html.raw("</tr>\n")
        }
        html.raw("</tbody>\n</table>\n")
    }

    /// A scenario's clients × addresses matrix, when its map is asked as user populations: a
    /// row per client, a column per address (in the order their results came; `no address`
    /// for the clients whose lookup failed), a cell where the client was sent, coloured by the
    /// address's result — the worst of its strategies' — and linking to that result. The cell
    /// of the address a client's SDK hands its apps (`sdk:`) is marked ★ `PASS`, its title
    /// saying why the SDK picks it.
    static func writeClientMatrix(_ cells: [HTMLMatrixCell], into html: inout HTMLWriter) {
        var clients: [String] = []
        var addresses: [String?] = []
        // Per address, the result that colours it: the first with the worst outcome.
        var shown: [String?: HTMLMatrixCell] = [:]
        var sent: Set<[String?]> = []
        // (client, address) → why the client's SDK picks the address.
        var picked: [[String?]: String] = [:]
        for cell in cells where !cell.clients.isEmpty {
            for pick in cell.picks where picked[[pick.client, cell.ip]] == nil { picked[[pick.client, cell.ip]] = pick.reason }
            if !addresses.contains(cell.ip) { addresses.append(cell.ip) }
            if let current = shown[cell.ip], severity(current.status) >= severity(cell.status) {} else { shown[cell.ip] = cell }
            for client in cell.clients {
                if !clients.contains(client) { clients.append(client) }
                sent.insert([client, cell.ip])
            }
        }
        guard !clients.isEmpty else { return }
        html.raw("<table class=\"matrix clients\">\n<thead><tr><th scope=\"col\">client</th>")
        for address in addresses {
            html.raw("<th scope=\"col\">")
            if let address { html.text(address) } else { html.raw("no address") }
            html.raw("</th>")
        }
        html.raw("</tr></thead>\n<tbody>\n")
        for client in clients {
            html.raw("<tr><th scope=\"row\">")
            html.text(client)
            html.raw("</th>")
            for address in addresses {
                guard sent.contains([client, address]), let cell = shown[address] else {
                    html.raw("<td class=\"none\" title=\"not sent there\"></td>")
                    continue
                }
                html.raw("<td>")
                writeCell(cell, pickedBecause: picked[[client, address]], into: &html)
                html.raw("</td>")
            }
            html.raw("</tr>\n")
        }
        html.raw("</tbody>\n</table>\n")
    }

    /// How bad an outcome is, for the cell an address shows: an error, a failure, a skip, a pass.
    private static func severity(_ status: HTMLStatus) -> Int {
        switch status {
        case .passed: 0
        case .skipped: 1
        case .failed: 2
        case .error: 3
        }
    }

    /// `<a class="cell failed" href="#r0-3-1" data-result="r0-3-1" data-status="failed">FAIL</a>`;
    /// with `pickedBecause` (the clients matrix, the row's client picks the address), class
    /// `pick`, the reason in the title and a ★ before the label.
    private static func writeCell(_ cell: HTMLMatrixCell, pickedBecause reason: String? = nil, into html: inout HTMLWriter) {
        html.raw("<a class=\"cell ")
        html.raw(cell.status.name)
        if cell.flaky { html.raw(" flaky") }
        if reason != nil { html.raw(" pick") }
        html.raw("\" href=\"#")
        html.resultID(cell.position)
        html.raw("\" data-result=\"")
        html.resultID(cell.position)
        html.raw("\" data-status=\"")
        html.raw(cell.status.name)
        html.raw("\" title=\"")
        html.raw(cell.status.name)
        html.raw(": ")
        html.attributeText(cell.strategy)
        if let ip = cell.ip {
            html.raw(" ")
            html.attributeText(ip)
        }
        if let reason {
            html.raw("; picked: ")
            html.attributeText(reason)
        }
        html.raw("\">")
        if reason != nil { html.raw("&#9733; ") }
        html.raw(cell.flaky ? "FLAKY" : cell.status.label)
        html.raw("</a>")
    }
}
