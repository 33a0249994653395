//! Operation selection: generate a few operations of a big WSDL and only the types they reach, as
//! gSOAP's `wsdl2h -Ow4` does.
//!
//! Operations are named by their WSDL name (the `name` of the `wsdl:operation` in the portType and
//! binding, WSDL 1.1 §2.4, §2.5) or by the generated method's name (the one WSDL name it spells but
//! for case, `_` and `-`); a name selects every operation of that name, in every SOAP
//! binding (an overloaded name, §2.4.5, selects all its overloads). The model builder then
//! reaches types from the selected operations only, as it always does from the operations it
//! generates: through fields, choices, aliases and fault details; every type derived from a
//! reached complexType that an element declares (`xsi:type`, XML Schema Part 1 §2.6.1, the
//! `…Kind` enums) and every member of a reached substitution group head (§3.3.6) is kept, so the
//! kept set is closed. Methods and the types named after schema components keep their names
//! whatever the selection (those names are assigned from the whole WSDL first).

use std::collections::BTreeSet;

use crate::error::{Error, ErrorKind, Errors};
use crate::read::components::{BindingKind, Definitions};

/// Which WSDL operations to generate: all (the default), only some, all but some.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Only these, when given.
    pub only: Option<BTreeSet<String>>,
    /// Not these.
    pub exclude: BTreeSet<String>,
    /// These also as a streamed method (`{method}_stream`, an `ItemStream` of the repeated
    /// result element).
    pub stream: BTreeSet<String>,
}

impl Selection {
    /// Whether every operation is generated.
    pub fn is_all(&self) -> bool {
        self.only.is_none() && self.exclude.is_empty()
    }

    /// Whether the WSDL operation `name` is generated.
    pub fn selects(&self, name: &str) -> bool {
        self.only.as_ref().is_none_or(|o| o.contains(name)) && !self.exclude.contains(name)
    }

    /// The selection with every name given as an operation of a SOAP binding of `defs`: a WSDL
    /// name as it is, the generated method's name (`debtor_get_name`, or any spelling equal to
    /// one WSDL name but for case, `_` and `-`) as that WSDL name.
    ///
    /// # Errors
    ///
    /// One error per unknown name, with a "did you mean" when a name is close and the names
    /// there are; one per name that several WSDL names spell alike, listing them.
    pub fn resolve(&self, defs: &Definitions, source: &str) -> Result<Selection, Errors> {
        let known = operation_names(defs);
        let mut errors = Vec::new();
        let mut resolve = |what: &str, names: &BTreeSet<String>| -> BTreeSet<String> {
            let mut out = BTreeSet::new();
            for n in names {
                if known.contains(n.as_str()) {
                    out.insert(n.clone());
                    continue;
                }
                let k = key(n);
                let alike: Vec<&str> = known.iter().copied().filter(|w| key(w) == k).collect();
                match alike.as_slice() {
                    [one] => {
                        out.insert((*one).to_owned());
                    }
                    [] => errors.push(unknown(what, n, &known, source)),
                    many => errors.push(
                        Error::new(
                            ErrorKind::Undefined(format!(
                                "operation {n:?} {what} in {source} is ambiguous"
                            )),
                            None,
                        )
                        .with_hint(format!(
                            "it spells {} alike (WSDL names): name one of them",
                            many.join(", ")
                        )),
                    ),
                }
            }
            out
        };
        let only = self.only.as_ref().map(|o| resolve("to generate", o));
        let exclude = resolve("to leave out", &self.exclude);
        let stream = resolve("to stream", &self.stream);
        if errors.is_empty() {
            Ok(Selection {
                only,
                exclude,
                stream,
            })
        } else {
            Err(Errors(errors))
        }
    }
}

/// The names of the operations of every SOAP binding, sorted.
pub fn operation_names(defs: &Definitions) -> BTreeSet<&str> {
    defs.bindings
        .values()
        .filter(|b| matches!(b.kind, BindingKind::Soap11 | BindingKind::Soap12))
        .flat_map(|b| b.operations.iter().map(|o| o.name.as_str()))
        .collect()
}

/// Up to this many operations, an error lists them all; above, the closest ones.
const LISTED: usize = 40;

/// How many of the closest operations an error lists when there are many.
const CLOSEST: usize = 12;

fn unknown(what: &str, name: &str, known: &BTreeSet<&str>, source: &str) -> Error {
    let e = Error::new(
        ErrorKind::Undefined(format!("operation {name:?} {what} in {source}")),
        None,
    );
    if known.is_empty() {
        return e.with_hint("it has no SOAP operations");
    }
    let mut hint = String::new();
    if let Some(close) = closest(name, known) {
        hint.push_str(&format!("did you mean {close:?}? "));
    }
    if known.len() <= LISTED {
        let all: Vec<&str> = known.iter().copied().collect();
        hint.push_str(&format!("its operations (WSDL names): {}", all.join(", ")));
    } else {
        let k = key(name);
        let mut near: Vec<(usize, &str)> =
            known.iter().map(|n| (distance(&k, &key(n)), *n)).collect();
        near.sort_unstable();
        let near: Vec<&str> = near.into_iter().take(CLOSEST).map(|(_, n)| n).collect();
        hint.push_str(&format!(
            "the closest of its {} operations (WSDL names): {}; `soapgen inspect` lists them all",
            known.len(),
            near.join(", ")
        ));
    }
    e.with_hint(hint)
}

/// A name compared without case, `_` and `-` (so a Rust method name finds its WSDL name).
fn key(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The known name `name` most likely meant: the same letters ignoring case and `_` (a Rust method
/// name for its WSDL name), else the nearest by edit distance if it is within a third of the
/// length.
pub(crate) fn closest<'a>(name: &str, known: &BTreeSet<&'a str>) -> Option<&'a str> {
    let k = key(name);
    if let Some(same) = known.iter().find(|n| key(n) == k) {
        return Some(same);
    }
    let (best, d) = known
        .iter()
        .map(|n| (*n, distance(&k, &key(n))))
        .min_by_key(|(_, d)| *d)?;
    (d <= (k.chars().count() / 3).max(1)).then_some(best)
}

/// Levenshtein distance, by characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let known: BTreeSet<&str> = ["Debtor_GetName", "Debtor_GetData", "Order_Create"]
            .into_iter()
            .collect();
        assert_eq!(closest("debtor_get_name", &known), Some("Debtor_GetName"));
        assert_eq!(closest("Debtor_GetNam", &known), Some("Debtor_GetName"));
        assert_eq!(closest("Order_Creat", &known), Some("Order_Create"));
        assert_eq!(closest("Invoice", &known), None);
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn selects() {
        let mut s = Selection::default();
        assert!(s.is_all() && s.selects("A"));
        s.exclude.insert("A".into());
        assert!(!s.selects("A") && s.selects("B"));
        s.only = Some(["A".to_owned(), "C".to_owned()].into_iter().collect());
        assert!(!s.selects("A") && !s.selects("B") && s.selects("C"));
    }
}
