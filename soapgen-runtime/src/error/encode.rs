//! The error of writing a request.

/// A request that could not be written as XML.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot write request: {message}")]
pub struct EncodeError {
    /// What went wrong.
    pub message: String,
}

impl EncodeError {
    /// The writer was driven in an order that does not produce XML (a bug in hand-written
    /// [`ToXml`](crate::ToXml) code).
    pub fn misuse(what: &str) -> Self {
        EncodeError {
            message: format!("writer misuse: {what}"),
        }
    }

    /// `c`, at byte `offset` of a string value, cannot appear in XML 1.0 (§2.2).
    pub fn invalid_char(c: char, offset: usize) -> Self {
        EncodeError {
            message: format!(
                "character U+{:04X} at byte {offset} of a value cannot be represented in XML 1.0",
                c as u32
            ),
        }
    }

    /// A value that cannot be written, with the reason.
    pub fn invalid_value(type_name: &str, reason: &str) -> Self {
        EncodeError {
            message: format!("invalid {type_name} value: {reason}"),
        }
    }
}
