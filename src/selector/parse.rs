//! The string syntax (`env notin (qa,dev),!legacy,tier=web`): apimachinery's lexer and
//! recursive-descent parser (`labels.Parse`), token for token, with its error texts.
use super::conjunction::Selector;
use super::error::SelectorError;
use super::requirement::{Operator, Requirement};
use super::validation::label_key_errors;
use super::FieldError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// A run of symbols that is no token; unreachable with today's symbol set, kept so the
    /// lexer is total like upstream's.
    Error,
    EndOfString,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

/// apimachinery's `string2token`.
fn keyword(literal: &str) -> Option<Token> {
    Some(match literal {
        ")" => Token::ClosedPar,
        "," => Token::Comma,
        "!" => Token::DoesNotExist,
        "==" => Token::DoubleEquals,
        "=" => Token::Equals,
        ">" => Token::GreaterThan,
        "in" => Token::In,
        "<" => Token::LessThan,
        "!=" => Token::NotEquals,
        "notin" => Token::NotIn,
        "(" => Token::OpenPar,
        _ => return None,
    })
}

fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

fn is_special_symbol(b: u8) -> bool {
    matches!(b, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

#[derive(Clone, Debug)]
struct Item {
    token: Token,
    literal: String,
}

/// Byte lexer. Like upstream, `read` yields 0 at the end *and* for a NUL byte, so a NUL
/// ends the current token and, where a token would start, the whole input.
struct Lexer<'a> {
    s: &'a str,
    pos: usize,
}

impl Lexer<'_> {
    fn read(&mut self) -> u8 {
        match self.s.as_bytes().get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                b
            }
            None => 0,
        }
    }

    fn unread(&mut self) {
        self.pos = self.pos.saturating_sub(1);
    }

    /// Slices only ever end at ASCII bytes or the end, so they are valid UTF-8.
    fn slice(&self, start: usize, end: usize) -> &str {
        self.s.get(start..end).unwrap_or_default()
    }

    fn scan_id_or_keyword(&mut self) -> Item {
        let start = self.pos;
        let end = loop {
            let at = self.pos;
            match self.read() {
                0 => break at,
                ch if is_special_symbol(ch) || is_whitespace(ch) => {
                    self.unread();
                    break at;
                }
                _ => {}
            }
        };
        let literal = self.slice(start, end).to_string();
        let token = keyword(&literal).unwrap_or(Token::Identifier);
        Item { token, literal }
    }

    /// The longest run of symbols that still is a token, stopping at the first extension that
    /// is not (`===` lexes as `==`, `=`).
    fn scan_special_symbol(&mut self) -> Item {
        let start = self.pos;
        let mut last: Option<(Token, usize)> = None;
        loop {
            match self.read() {
                0 => break,
                ch if is_special_symbol(ch) => {
                    if let Some(token) = keyword(self.slice(start, self.pos)) {
                        last = Some((token, self.pos));
                    } else if last.is_some() {
                        self.unread();
                        break;
                    }
                }
                _ => {
                    self.unread();
                    break;
                }
            }
        }
        match last {
            Some((token, end)) => Item {
                token,
                literal: self.slice(start, end).to_string(),
            },
            None => Item {
                token: Token::Error,
                literal: format!(
                    "error expected: keyword found '{}'",
                    self.slice(start, self.pos)
                ),
            },
        }
    }

    fn lex(&mut self) -> Item {
        let mut ch = self.read();
        while is_whitespace(ch) {
            ch = self.read();
        }
        match ch {
            0 => Item {
                token: Token::EndOfString,
                literal: String::new(),
            },
            ch if is_special_symbol(ch) => {
                self.unread();
                self.scan_special_symbol()
            }
            _ => {
                self.unread();
                self.scan_id_or_keyword()
            }
        }
    }
}

/// In the value context `in` and `notin` are plain identifiers (`a in (in,notin)`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    KeyAndOperator,
    Values,
}

struct Parser {
    items: Vec<Item>,
    position: usize,
}

type Step<T> = Result<T, SelectorError>;

fn syntax(message: String) -> SelectorError {
    SelectorError::message(message)
}

/// `binaryOperators` joined, as the "expected" part of an operator error.
const BINARY_OPERATORS: &str = "in, notin, =, ==, !=, gt, lt";

impl Parser {
    fn item(&self, context: Context) -> (Token, &str) {
        match self.items.get(self.position) {
            Some(item) => {
                let token = match (context, item.token) {
                    (Context::Values, Token::In | Token::NotIn) => Token::Identifier,
                    (_, token) => token,
                };
                (token, item.literal.as_str())
            }
            None => (Token::EndOfString, ""),
        }
    }

    fn lookahead(&self, context: Context) -> (Token, String) {
        let (token, literal) = self.item(context);
        (token, literal.to_string())
    }

    fn consume(&mut self, context: Context) -> (Token, String) {
        let next = self.lookahead(context);
        self.position += 1;
        next
    }

    fn parse(&mut self) -> Step<Vec<Requirement>> {
        let mut requirements = Vec::new();
        loop {
            let (token, literal) = self.lookahead(Context::Values);
            match token {
                Token::Identifier | Token::DoesNotExist => {
                    let requirement = self
                        .parse_requirement()
                        .map_err(|e| e.with_context("unable to parse requirement: "))?;
                    requirements.push(requirement);
                    let (token, literal) = self.consume(Context::Values);
                    match token {
                        Token::EndOfString => return Ok(requirements),
                        Token::Comma => {
                            let (next, literal) = self.lookahead(Context::Values);
                            if next != Token::Identifier && next != Token::DoesNotExist {
                                return Err(syntax(format!(
                                    "found '{literal}', expected: identifier after ','"
                                )));
                            }
                        }
                        _ => {
                            return Err(syntax(format!(
                                "found '{literal}', expected: ',' or 'end of string'"
                            )))
                        }
                    }
                }
                Token::EndOfString => return Ok(requirements),
                _ => {
                    return Err(syntax(format!(
                        "found '{literal}', expected: !, identifier, or 'end of string'"
                    )))
                }
            }
        }
    }

    fn parse_requirement(&mut self) -> Step<Requirement> {
        let (key, operator) = self.parse_key_and_infer_operator()?;
        if let Some(operator @ (Operator::Exists | Operator::DoesNotExist)) = operator {
            return Requirement::new(&key, operator, Vec::new());
        }
        let operator = self.parse_operator()?;
        let values = match operator {
            Operator::In | Operator::NotIn => self.parse_values()?,
            _ => self.parse_exact_value()?,
        };
        Requirement::new(&key, operator, values)
    }

    /// The key, and `exists` / `!` when no binary operator follows.
    fn parse_key_and_infer_operator(&mut self) -> Step<(String, Option<Operator>)> {
        let mut operator = None;
        let (mut token, mut literal) = self.consume(Context::Values);
        if token == Token::DoesNotExist {
            operator = Some(Operator::DoesNotExist);
            (token, literal) = self.consume(Context::Values);
        }
        if token != Token::Identifier {
            return Err(syntax(format!("found '{literal}', expected: identifier")));
        }
        let key_errors = label_key_errors(&literal);
        if !key_errors.is_empty() {
            // Upstream passes a nil path here and prints `<nil>` as the field; say `key`.
            return Err(SelectorError::fields(vec![FieldError::invalid(
                "key".to_string(),
                &literal,
                key_errors.join("; "),
            )]));
        }
        let (next, _) = self.item(Context::Values);
        if matches!(next, Token::EndOfString | Token::Comma) && operator.is_none() {
            operator = Some(Operator::Exists);
        }
        Ok((literal, operator))
    }

    fn parse_operator(&mut self) -> Step<Operator> {
        let (token, literal) = self.consume(Context::KeyAndOperator);
        Ok(match token {
            Token::In => Operator::In,
            Token::Equals => Operator::Equals,
            Token::DoubleEquals => Operator::DoubleEquals,
            Token::GreaterThan => Operator::GreaterThan,
            Token::LessThan => Operator::LessThan,
            Token::NotIn => Operator::NotIn,
            Token::NotEquals => Operator::NotEquals,
            _ => {
                return Err(syntax(format!(
                    "found '{literal}', expected: {BINARY_OPERATORS}"
                )))
            }
        })
    }

    /// `(a,b,c)`: a sorted set; empty slots give `""` and `()` is `{""}`.
    fn parse_values(&mut self) -> Step<Vec<String>> {
        let (token, literal) = self.consume(Context::Values);
        if token != Token::OpenPar {
            return Err(syntax(format!("found '{literal}' expected: '('")));
        }
        let (token, literal) = self.lookahead(Context::Values);
        match token {
            Token::Identifier | Token::Comma => {
                let values = self.parse_identifiers_list()?;
                let (token, _) = self.consume(Context::Values);
                if token != Token::ClosedPar {
                    // Upstream names the token after '(' here, not the one found.
                    return Err(syntax(format!("found '{literal}', expected: ')'")));
                }
                Ok(values)
            }
            Token::ClosedPar => {
                self.consume(Context::Values);
                Ok(vec![String::new()])
            }
            _ => Err(syntax(format!(
                "found '{literal}', expected: ',', ')' or identifier"
            ))),
        }
    }

    fn parse_identifiers_list(&mut self) -> Step<Vec<String>> {
        let mut set = std::collections::BTreeSet::new();
        loop {
            let (token, literal) = self.consume(Context::Values);
            match token {
                Token::Identifier => {
                    set.insert(literal);
                    let (next, literal) = self.lookahead(Context::Values);
                    match next {
                        Token::Comma => continue,
                        Token::ClosedPar => return Ok(set.into_iter().collect()),
                        _ => {
                            return Err(syntax(format!("found '{literal}', expected: ',' or ')'")))
                        }
                    }
                }
                Token::Comma => {
                    if set.is_empty() {
                        set.insert(String::new());
                    }
                    let (next, _) = self.item(Context::Values);
                    if next == Token::ClosedPar {
                        set.insert(String::new());
                        return Ok(set.into_iter().collect());
                    }
                    if next == Token::Comma {
                        set.insert(String::new());
                    }
                }
                _ => {
                    return Err(syntax(format!(
                        "found '{literal}', expected: ',', or identifier"
                    )))
                }
            }
        }
    }

    /// The one value after `=`, `==`, `!=`, `>`, `<`; missing means `""`.
    fn parse_exact_value(&mut self) -> Step<Vec<String>> {
        let (next, _) = self.item(Context::Values);
        if matches!(next, Token::EndOfString | Token::Comma) {
            return Ok(vec![String::new()]);
        }
        let (token, literal) = self.consume(Context::Values);
        if token == Token::Identifier {
            Ok(vec![literal])
        } else {
            Err(syntax(format!("found '{literal}', expected: identifier")))
        }
    }
}

impl Selector {
    /// `labels.Parse`: the string syntax, e.g. `env notin (qa,dev),!legacy,tier=web`.
    /// An empty string is everything.
    pub fn parse(s: &str) -> Result<Selector, SelectorError> {
        let mut lexer = Lexer { s, pos: 0 };
        let mut items = Vec::new();
        loop {
            let item = lexer.lex();
            let end = item.token == Token::EndOfString;
            items.push(item);
            if end {
                break;
            }
        }
        let requirements = Parser { items, position: 0 }.parse()?;
        Ok(Selector::from_requirements(requirements))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(s: &str) -> Result<String, SelectorError> {
        Selector::parse(s).map(|sel| sel.to_string())
    }

    fn error(s: &str) -> String {
        match Selector::parse(s) {
            Ok(sel) => panic!("{s:?} parsed as {sel}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn symbol_runs_split_by_first_failed_extension() {
        // `===` lexes as `==`, `=`; the second `=` is where a value should be.
        assert_eq!(
            error("x===a"),
            "unable to parse requirement: found '=', expected: identifier"
        );
    }

    #[test]
    fn in_alone_is_a_key() {
        assert_eq!(canonical("in"), Ok("in".into()));
    }

    #[test]
    fn double_comma_names_the_token() {
        assert_eq!(error("x,,y"), "found ',', expected: identifier after ','");
    }

    #[test]
    fn unknown_operator_word_lists_binary_operators() {
        assert_eq!(
            error("x nott in (y)"),
            "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt"
        );
    }

    #[test]
    fn invalid_key_is_a_field_error() {
        let err = Selector::parse("-x=1").expect_err("bad key");
        assert!(err
            .to_string()
            .starts_with(r#"unable to parse requirement: key: Invalid value: "-x": name part"#));
    }

    #[test]
    fn non_integer_gt_is_rejected_by_validation() {
        assert_eq!(
            error("x<a"),
            r#"unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer"#
        );
    }

    #[test]
    fn missing_exact_value_is_empty() {
        assert_eq!(canonical("x!=,y=="), Ok("x!=,y==".into()));
    }

    #[test]
    fn nul_byte_where_a_token_starts_ends_the_input() {
        // Upstream's lexer reads 0 for both the end and a NUL byte.
        assert_eq!(Selector::parse("\0x").map(|s| s.is_everything()), Ok(true));
        assert_eq!(canonical("x \0y"), Ok("x".into()));
    }

    #[test]
    fn unterminated_value_list_is_rejected() {
        assert_eq!(
            error("a notin("),
            "unable to parse requirement: found '', expected: ',', ')' or identifier"
        );
    }

    #[test]
    fn bang_then_equals_is_rejected_after_the_requirement() {
        assert_eq!(error("!x=a"), "found '=', expected: ',' or 'end of string'");
    }

    #[test]
    fn non_ascii_identifiers_lex_whole() {
        let err = Selector::parse("k=māori").expect_err("non-ascii value");
        assert_eq!(err.field_errors()[0].field(), "values[0][k]");
    }
}
