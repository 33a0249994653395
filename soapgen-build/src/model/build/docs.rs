//! The documentation of what a client and its operations are generated from that no generated
//! type carries (WSDL 1.1 §2.1.4): the binding operation's, the input's, output's and faults',
//! their messages' and parts', and the header elements' (XML Schema Part 1 §3.13).

use super::context::{add_prose, Builder};
use crate::model::ir::*;
use crate::read::components::*;

impl Builder<'_> {
    /// Adds to `decl`'s documentation what the WSDL says of operation `op` bound by `bop` beyond
    /// its portType operation's documentation, each once, labelled with what it documents.
    pub(super) fn operation_docs(
        &self,
        op: &PortTypeOperation,
        bop: &BindingOperation,
        input: &Message,
        output: Option<&Message>,
        decl: &mut OperationDecl,
    ) {
        // What the WSDL says of the operation beyond its portType operation's documentation: the
        // binding operation's, its input's, output's and faults', its messages' and parts'.
        add_prose(&mut decl.doc, None, bop.doc.as_deref().unwrap_or_default());
        for (what, d) in &op.message_docs {
            add_prose(&mut decl.doc, Some(&capitalized(what)), d);
        }
        let faults: Vec<(String, &Message)> = op
            .faults
            .iter()
            .filter_map(|(name, q)| {
                let m = self.defs.messages.get(q)?;
                Some((format!("Fault {name}"), m))
            })
            .collect();
        let messages = [
            ("Request".to_owned(), Some(input)),
            ("Response".to_owned(), output),
        ]
        .into_iter()
        .chain(faults.into_iter().map(|(w, m)| (w, Some(m))));
        for (what, m) in messages {
            let what = what.as_str();
            let Some(m) = m else { continue };
            add_prose(
                &mut decl.doc,
                Some(what),
                m.doc.as_deref().unwrap_or_default(),
            );
            for p in &m.parts {
                if let Some(d) = &p.doc {
                    add_prose(&mut decl.doc, Some(&format!("{what} part {}", p.name)), d);
                }
            }
        }
    }

    /// The documentation of each header element `ops` send or receive, by element, in the order
    /// first named.
    pub(super) fn header_docs(&self, ops: &[OperationDecl]) -> Vec<(QName, String)> {
        let mut out: Vec<(QName, String)> = Vec::new();
        for h in ops
            .iter()
            .flat_map(|o| o.headers.iter().chain(&o.response_headers))
        {
            if out.iter().any(|(q, _)| q == &h.xml) {
                continue;
            }
            if let Some(d) = self
                .schemas()
                .elements
                .get(&h.xml)
                .and_then(|e| e.doc.clone())
            {
                out.push((h.xml.clone(), d));
            }
        }
        out
    }
}

/// `request` → `Request`.
fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
