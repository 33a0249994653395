//! Derivation and substitution: the complexTypes derived from a named one become an `xsi:type`
//! enum (XML Schema Part 1 §2.6.1, §3.4.2), and the members of a substitution group its
//! alternatives (§3.3.2 {substitution group affiliation}, §3.3.6).

use super::*;

impl<'d> Builder<'d> {
    /// The types an element declared with the complexType `q` may hold (XML Schema Part 1 §3.4.6
    /// Type Derivation OK, §2.6.1): `q` unless abstract, then every type derived from it,
    /// transitively, abstract ones left out; breadth first, each level in name order; cycles cut.
    fn derivation_set(&self, q: &QName) -> Vec<QName> {
        let mut seen = BTreeSet::new();
        let mut queue = VecDeque::from([q.clone()]);
        let mut out = Vec::new();
        while let Some(t) = queue.pop_front() {
            if !seen.insert(t.clone()) {
                continue;
            }
            if matches!(self.schemas().types.get(&t), Some(TypeDef::Complex(ct)) if !ct.is_abstract)
            {
                out.push(t.clone());
            }
            if let Some(ds) = self.derived.get(&t) {
                queue.extend(ds.iter().cloned());
            }
        }
        out
    }

    /// The enum of the complexType `q` and its derived types (see [`TypeKey::Derivations`]).
    pub(super) fn derivations_decl(&mut self, name: String, q: &QName) -> R<()> {
        let Some(TypeDef::Complex(ct)) = self.schemas().types.get(q) else {
            return Ok(());
        };
        let is_abstract = ct.is_abstract;
        let set = self.derivation_set(q);
        if set.is_empty() {
            return Err(unsupported(
                format!("abstract complexType {q} with no concrete type derived from it"),
                &ct.loc,
            ));
        }
        let variants = set
            .into_iter()
            .map(|t| {
                let n = self.enqueue(TypeKey::Named(t.clone()));
                DerivedVariant {
                    name: n.clone(),
                    xsd_type: t,
                    ty: TypeExpr::one(Base::Named(n)),
                }
            })
            .collect();
        let doc = if is_abstract {
            format!(
                "A value of a type derived from the abstract complexType `{q}`, as its `xsi:type` says \
                 (XML Schema Part 1 §2.6.1)."
            )
        } else {
            format!(
                "A value of the complexType `{q}` (no `xsi:type`) or of a type derived from it, as its \
                 `xsi:type` says (XML Schema Part 1 §2.6.1)."
            )
        };
        self.decls.insert(
            name.clone(),
            TypeDecl::Derivations(DerivationsDecl {
                name,
                doc: Some(doc),
                base: q.clone(),
                is_abstract,
                variants,
            }),
        );
        Ok(())
    }

    /// Whether a reference to `q` stands for more than one element: `q` is abstract or the head
    /// of a substitution group (XML Schema Part 1 §3.3.6, §2.2.2.3).
    pub(super) fn substitutable(&self, q: &QName) -> bool {
        self.members.contains_key(q)
            || self
                .schemas()
                .elements
                .get(q)
                .is_some_and(|e| e.is_abstract)
    }

    /// The elements that may appear where `head` is referenced (XML Schema Part 1 §3.3.6
    /// substitution group): `head` unless abstract, then every member, transitively, across all
    /// schemas read, abstract members left out (their own members kept); in document-independent
    /// order (head first, then breadth first, members by name). Each name once, cycles cut.
    pub(super) fn substitution_set(&self, head: &QName) -> Vec<QName> {
        let mut seen = BTreeSet::new();
        let mut queue = VecDeque::from([head.clone()]);
        let mut out = Vec::new();
        while let Some(q) = queue.pop_front() {
            if !seen.insert(q.clone()) {
                continue;
            }
            if self
                .schemas()
                .elements
                .get(&q)
                .is_some_and(|e| !e.is_abstract)
            {
                out.push(q.clone());
            }
            if let Some(ms) = self.members.get(&q) {
                queue.extend(ms.iter().cloned());
            }
        }
        out
    }
}
