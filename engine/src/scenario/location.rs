//! Maps between byte offsets, key paths and line/column positions of a TOML source, using the
//! spans kept by `toml_edit`'s parsed [`Document`].

use core::ops::Range;

use toml_edit::{Array, ArrayOfTables, Document, InlineTable, Item, Table, Value};

use super::error::{FieldPath, PathSegment};

/// A node of the parsed document.
#[derive(Clone, Copy)]
enum Node<'d> {
    Table(&'d Table),
    Inline(&'d InlineTable),
    Array(&'d Array),
    Tables(&'d ArrayOfTables),
    Scalar(&'d Value),
}

/// A child of a node: its path segment, the span of its key (tables only), and the node.
type Child<'d> = (PathSegment, Option<Range<usize>>, Node<'d>);

impl<'d> Node<'d> {
    fn from_item(item: &'d Item) -> Option<Node<'d>> {
        match item {
            Item::None => None,
            Item::Table(t) => Some(Node::Table(t)),
            Item::ArrayOfTables(a) => Some(Node::Tables(a)),
            Item::Value(v) => Some(Node::from_value(v)),
        }
    }

    fn from_value(value: &'d Value) -> Node<'d> {
        match value {
            Value::Array(a) => Node::Array(a),
            Value::InlineTable(t) => Node::Inline(t),
            other => Node::Scalar(other),
        }
    }

    /// For a table, its header; for a value, its literal.
    fn span(self) -> Option<Range<usize>> {
        match self {
            Node::Table(t) => t.span(),
            Node::Inline(t) => t.span(),
            Node::Array(a) => a.span(),
            Node::Tables(a) => a.span(),
            Node::Scalar(v) => v.span(),
        }
    }

    fn is_table(self) -> bool {
        matches!(self, Node::Table(_) | Node::Inline(_))
    }

    fn children(self) -> Vec<Child<'d>> {
        match self {
            Node::Table(t) => t
                .iter()
                .filter_map(|(k, item)| {
                    let key_span = t.key(k).and_then(|key| key.span());
                    Node::from_item(item).map(|n| (PathSegment::Key(k.to_owned()), key_span, n))
                })
                .collect(),
            Node::Inline(t) => t
                .iter()
                .map(|(k, v)| {
                    let key_span = t.key(k).and_then(|key| key.span());
                    (
                        PathSegment::Key(k.to_owned()),
                        key_span,
                        Node::from_value(v),
                    )
                })
                .collect(),
            Node::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, v)| (PathSegment::Index(i), None, Node::from_value(v)))
                .collect(),
            Node::Tables(a) => a
                .iter()
                .enumerate()
                .map(|(i, t)| (PathSegment::Index(i), None, Node::Table(t)))
                .collect(),
            Node::Scalar(_) => Vec::new(),
        }
    }

    fn child(self, seg: &PathSegment) -> Option<(Option<Range<usize>>, Node<'d>)> {
        self.children()
            .into_iter()
            .find(|(s, _, _)| s == seg)
            .map(|(_, key_span, node)| (key_span, node))
    }

    /// The scalar's text as a message would quote it (`zz` for `"zz"`, `5` for `5`).
    fn scalar_text(self) -> Option<String> {
        match self {
            Node::Scalar(Value::String(s)) => Some(s.value().clone()),
            Node::Scalar(Value::Integer(i)) => Some(i.value().to_string()),
            Node::Scalar(Value::Float(x)) => Some(x.value().to_string()),
            Node::Scalar(Value::Boolean(b)) => Some(b.value().to_string()),
            _ => None,
        }
    }
}

fn contains(span: &Range<usize>, offset: usize) -> bool {
    span.contains(&offset) || (span.is_empty() && span.start == offset)
}

/// A parsed source, able to locate paths and offsets.
pub(crate) struct SourceMap<'s> {
    doc: Document<&'s str>,
}

impl<'s> SourceMap<'s> {
    pub(crate) fn new(doc: Document<&'s str>) -> SourceMap<'s> {
        SourceMap { doc }
    }

    fn root(&self) -> Node<'_> {
        Node::Table(self.doc.as_table())
    }

    /// Byte offset of the field at `path`: its value's literal, or its table's header; for a
    /// path absent from the source (a defaulted field), the deepest present ancestor; else 0.
    pub(crate) fn offset_of(&self, path: &FieldPath) -> usize {
        let mut node = self.root();
        let mut best = 0;
        for seg in &path.0 {
            let Some((key_span, child)) = node.child(seg) else {
                break;
            };
            if let Some(span) = child.span().or(key_span) {
                best = span.start;
            }
            node = child;
        }
        best
    }

    /// The key path of the key or value whose span is exactly `span` (the parser's errors
    /// carry such spans), else of the innermost one holding `span.start`; the empty path (the
    /// document) if none does.
    pub(crate) fn path_at(&self, span: Range<usize>) -> FieldPath {
        let root = self.root();
        let here = FieldPath::default();
        path_at(root, &|s| *s == span, &here)
            .or_else(|| path_at(root, &|s| contains(s, span.start), &here))
            .unwrap_or_default()
    }

    /// Refines the location of a data error. The TOML parser locates errors inside tagged
    /// enums only at the enclosing table; the message then names the culprit in backticks or
    /// quotes (`unknown field \`x\``, `got \`5x\``). If `path` is a table with a key, or a
    /// leaf whose value, equals that token, the path is extended to it and the offset of that
    /// key or value is returned. `missing field \`x\`` appends `x` (offset unchanged).
    pub(crate) fn refine(&self, path: FieldPath, message: &str) -> (FieldPath, Option<usize>) {
        if let Some(field) = message
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next())
        {
            return (path.key(field), None);
        }
        let node = self.resolve(&path).filter(|n| n.is_table());
        let (Some(token), Some(node)) = (first_quoted(message), node) else {
            return (path, None);
        };
        let children = node.children();
        for (seg, key_span, _) in &children {
            if matches!(seg, PathSegment::Key(k) if *k == token) {
                return (with(&path, seg), key_span.as_ref().map(|s| s.start));
            }
        }
        for (seg, _, child) in &children {
            if child.scalar_text().as_deref() == Some(token.as_str()) {
                return (with(&path, seg), child.span().map(|s| s.start));
            }
            if let Node::Array(_) = child {
                for (inner, _, item) in child.children() {
                    if item.scalar_text().as_deref() == Some(token.as_str()) {
                        let found = with(&with(&path, seg), &inner);
                        return (found, item.span().map(|s| s.start));
                    }
                }
            }
        }
        (path, None)
    }

    fn resolve(&self, path: &FieldPath) -> Option<Node<'_>> {
        let mut node = self.root();
        for seg in &path.0 {
            node = node.child(seg)?.1;
        }
        Some(node)
    }
}

fn with(path: &FieldPath, seg: &PathSegment) -> FieldPath {
    match seg {
        PathSegment::Key(k) => path.key(k),
        PathSegment::Index(i) => path.index(*i),
    }
}

/// Depth-first search for the innermost key or node whose span satisfies `hit`.
fn path_at(
    node: Node<'_>,
    hit: &dyn Fn(&Range<usize>) -> bool,
    here: &FieldPath,
) -> Option<FieldPath> {
    for (seg, key_span, child) in node.children() {
        let path = with(here, &seg);
        if key_span.as_ref().is_some_and(hit) {
            return Some(path);
        }
        if let Some(found) = path_at(child, hit, &path) {
            return Some(found);
        }
    }
    node.span().filter(hit).map(|_| here.clone())
}

/// The culprit quoted in the first clause of `message` (before `, expected`, whose list would
/// name other fields): the last text in backticks (`unknown field \`x\``, `...; got \`x\``),
/// else the first in double quotes (`invalid type: string "x"`).
fn first_quoted(message: &str) -> Option<String> {
    let clause = message.split(", expected").next().unwrap_or(message);
    let ticks: Vec<&str> = clause.split('`').collect();
    if ticks.len() >= 3 {
        // Quoted texts are at odd indexes; take the last complete one.
        let last = if ticks.len() % 2 == 1 {
            ticks.len() - 2
        } else {
            ticks.len() - 3
        };
        return ticks.get(last).map(|t| (*t).to_owned());
    }
    let mut quotes = clause.split('"');
    quotes.next()?;
    let inner = quotes.next()?;
    quotes.next().map(|_| inner.to_owned())
}

/// 1-based (line, column in characters) of a byte offset in `src` (clamped to its length).
pub(crate) fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(src.len());
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    let before = &src[..end];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "[scenario]\nname = \"x\"\n\n[[lms.servers]]\nhost = \"a\"\nzone = \"z\"\nports = [1, 2]\n\n[[lms.servers]]\nhost = \"b\"\nopts = { deep = \"v\" }\n";

    fn map() -> Option<SourceMap<'static>> {
        Document::parse(SRC).ok().map(SourceMap::new)
    }

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col("", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("é = 1", 3), (1, 3));
        assert_eq!(line_col("a", 99), (1, 2));
    }

    #[test]
    fn offsets_of_paths() {
        let Some(m) = map() else {
            panic!("test source must parse");
        };
        let at = |p: &FieldPath| line_col(SRC, m.offset_of(p));
        let servers = FieldPath::root("lms").key("servers");
        assert_eq!(at(&servers.index(0).key("zone")), (6, 8));
        assert_eq!(at(&servers.index(1)), (9, 1));
        // Absent field: falls back to its table.
        assert_eq!(at(&servers.index(1).key("zone")), (9, 1));
        assert_eq!(at(&servers.index(0).key("ports").index(1)), (7, 13));
        assert_eq!(at(&servers.index(1).key("opts").key("deep")), (11, 17));
        assert_eq!(at(&FieldPath::root("nope")), (1, 1));
    }

    #[test]
    fn paths_at_offsets() {
        let Some(m) = map() else {
            panic!("test source must parse");
        };
        let path = |needle: &str| SRC.find(needle).map(|o| m.path_at(o..o + 1).to_string());
        assert_eq!(path("\"x\"").as_deref(), Some("scenario.name"));
        assert_eq!(path("zone").as_deref(), Some("lms.servers[0].zone"));
        assert_eq!(path("2]").as_deref(), Some("lms.servers[0].ports[1]"));
        assert_eq!(path("deep").as_deref(), Some("lms.servers[1].opts.deep"));
        assert_eq!(m.path_at(0..0).to_string(), "");
        assert_eq!(m.path_at(0..10).to_string(), "scenario");
    }

    #[test]
    fn refine_uses_the_quoted_token() {
        let Some(m) = map() else {
            panic!("test source must parse");
        };
        let s0 = FieldPath::root("lms").key("servers").index(0);
        let refine = |msg: &str| m.refine(s0.clone(), msg).0.to_string();
        assert_eq!(
            refine("unknown field `zone`, expected `x`"),
            "lms.servers[0].zone"
        );
        assert_eq!(
            refine("invalid value: string \"a\", expected x"),
            "lms.servers[0].host"
        );
        assert_eq!(refine("bad `2` here"), "lms.servers[0].ports[1]");
        assert_eq!(
            refine("missing field `evaluator`"),
            "lms.servers[0].evaluator"
        );
        assert_eq!(refine("no token"), "lms.servers[0]");
        assert_eq!(first_quoted("like \"a\" ok; got `b`").as_deref(), Some("b"));
        assert_eq!(
            first_quoted("a `x` and `y`, expected `z`").as_deref(),
            Some("y")
        );
        assert_eq!(
            first_quoted("string \"q\", expected u64").as_deref(),
            Some("q")
        );
        assert_eq!(first_quoted("dangling `x").as_deref(), None);
        assert_eq!(first_quoted("dangling \"x").as_deref(), None);
    }
}
