import Foundation

/// Why a file the command line named cannot be read, in the system's words (`No such file or
/// directory`), not Foundation's error dump.
enum FileProblem {
    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        if error.domain == NSCocoaErrorDomain, error.code == NSFileReadNoSuchFileError { return "No such file or directory" }
        return error.localizedDescription
    }
}
