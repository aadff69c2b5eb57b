/// How a collection given to `YAMLWriter` should look.
public enum YAMLCollectionStyle: Sendable, Equatable {
    /// One entry or item a line, nested by indentation.
    case block
    /// One line (`{a: 1, b: x}`, `[a, b]`) when every member is a scalar with no comments and
    /// the line stays within `YAMLWriter.flowLineLimit` columns; block otherwise.
    case flow
}
