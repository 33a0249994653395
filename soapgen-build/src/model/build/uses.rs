//! The directions each generated type is used in ([`Uses`]): what the operations send is
//! written, what they receive is read; nothing is generated for a direction a type is not used in.

use std::collections::{BTreeMap, BTreeSet};

use super::context::Builder;
use crate::model::ir::*;

impl Builder<'_> {
    /// Marks each struct, choice and derivations enum with the directions `clients` use it in
    /// ([`Uses`]): what a request's parameters and header blocks reach is written; what results,
    /// response headers and fault details reach is read (header blocks of requests too: a
    /// service may echo them; fault details are written too, by `FaultDetails`). A type reached
    /// by neither keeps both.
    pub(super) fn mark_uses(&mut self, clients: &[ClientDecl]) {
        fn named<'a>(b: &'a Base, out: &mut Vec<&'a str>) {
            match b {
                Base::Named(n) => out.push(n),
                Base::List(i) | Base::SoapArray(i) => named(i, out),
                Base::Std(_) | Base::Runtime(_) => {}
            }
        }
        if clients.iter().all(|c| c.operations.is_empty()) {
            return;
        }
        let mut edges: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (n, d) in &self.decls {
            let mut out = Vec::new();
            match d {
                TypeDecl::Struct(s) => s.fields.iter().for_each(|f| named(&f.ty.base, &mut out)),
                TypeDecl::Choice(c) => c.variants.iter().for_each(|v| named(&v.ty.base, &mut out)),
                TypeDecl::Derivations(d) => {
                    d.variants.iter().for_each(|v| named(&v.ty.base, &mut out))
                }
                TypeDecl::Alias(a) => named(&a.target, &mut out),
                TypeDecl::Faults(f) => f.variants.iter().for_each(|v| named(&v.1, &mut out)),
                TypeDecl::Enum(_) => {}
            }
            edges.insert(n, out);
        }
        let closure = |roots: Vec<&str>| {
            let mut seen: BTreeSet<String> = BTreeSet::new();
            let mut stack = roots;
            while let Some(n) = stack.pop() {
                if seen.insert(n.to_owned()) {
                    stack.extend(edges.get(n).into_iter().flatten().copied());
                }
            }
            seen
        };
        let (mut written, mut read) = (Vec::new(), Vec::new());
        for op in clients.iter().flat_map(|c| &c.operations) {
            for p in op.params.iter().chain(&op.headers) {
                named(&p.ty.base, &mut written);
            }
            for p in op.headers.iter().chain(&op.response_headers) {
                named(&p.ty.base, &mut read);
            }
            if let Some(t) = &op.ret {
                named(&t.base, &mut read);
            }
            if let Some(s) = &op.stream_items {
                named(&s.ty.base, &mut read);
            }
            // Fault details both ways: `FaultDetails` reads and writes them (a service, a fake).
            read.extend(op.faults.as_deref());
            written.extend(op.faults.as_deref());
        }
        let (written, read) = (closure(written), closure(read));
        for (n, d) in self.decls.iter_mut() {
            let (w, r) = (written.contains(n), read.contains(n));
            let uses = if w || r {
                Uses { write: w, read: r }
            } else {
                Uses::BOTH
            };
            match d {
                TypeDecl::Struct(s) => s.uses = uses,
                TypeDecl::Choice(c) => c.uses = uses,
                TypeDecl::Derivations(d) => d.uses = uses,
                _ => {}
            }
        }
    }
}
