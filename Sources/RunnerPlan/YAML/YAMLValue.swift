/// A value for `YAMLWriter` to write: each scalar case says how it must read back.
public indirect enum YAMLValue: Sendable, Equatable {
    /// Reads back as exactly this text, as a string: plain when that is unambiguous (letters,
    /// digits, a URL, `${secret:NAME}`), double-quoted with escapes otherwise (`"10"`, `"true"`,
    /// `"a: b"`, a line break as `\n`). `$` is never escaped: `${…}` stays for the plan reader.
    case string(String)
    /// This text written plain, as a plan author wrote it (`10`, `2xx`, `3s`, `~`), so it reads back
    /// as the same plain scalar, a number being a number. Text that cannot be a plain scalar
    /// there (a leading indicator, `: `, ` #`, a line break; in a flow collection `,[]{}:`) is
    /// double-quoted instead, as `.string` would be: it then reads back as a string. An empty
    /// text is written as nothing (`key:`), which reads back as an empty plain scalar (null).
    case plain(String)
    case integer(Int)
    case boolean(Bool)
    case sequence([YAMLItem], style: YAMLCollectionStyle = .block)
    case mapping([YAMLEntry], style: YAMLCollectionStyle = .block)
}
