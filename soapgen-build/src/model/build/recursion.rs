//! Recursion breaking: types that contain themselves by value (directly or through a cycle) get
//! a `Box` on the edges of each strongly connected component, so every type has a finite size.

use std::collections::BTreeMap;

use super::context::Builder;
use crate::model::ir::*;

impl<'d> Builder<'d> {
    /// Boxes the fields that make a type contain itself by value (through `T` or `Option<T>` fields):
    /// the fields between types of one strongly connected component.
    pub(super) fn box_cycles(&mut self) {
        let names: Vec<String> = self.decls.keys().cloned().collect();
        let index: BTreeMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
        fn members(d: &mut TypeDecl) -> Vec<&mut TypeExpr> {
            match d {
                TypeDecl::Struct(s) => s.fields.iter_mut().map(|f| &mut f.ty).collect(),
                TypeDecl::Choice(c) => c.variants.iter_mut().map(|v| &mut v.ty).collect(),
                TypeDecl::Derivations(d) => d.variants.iter_mut().map(|v| &mut v.ty).collect(),
                _ => Vec::new(),
            }
        }
        for (i, n) in names.iter().enumerate() {
            if let Some(d) = self.decls.get_mut(n) {
                for ty in members(d) {
                    if let (Base::Named(t), false) = (
                        &ty.base,
                        matches!(ty.card, Occurrence::Many | Occurrence::ManyNillable),
                    ) {
                        if let Some(&j) = index.get(t.as_str()) {
                            edges[i].push(j);
                        }
                    }
                }
            }
        }
        let comp = tarjan(&edges);
        for (i, n) in names.iter().enumerate() {
            if let Some(d) = self.decls.get_mut(n) {
                if matches!(d, TypeDecl::Derivations(_)) {
                    // Its variants are structs: every cycle through it continues through a
                    // struct field, boxed below, so the variants stay unboxed.
                    continue;
                }
                for ty in members(d) {
                    if let Base::Named(t) = &ty.base {
                        if matches!(ty.card, Occurrence::Many | Occurrence::ManyNillable) {
                            continue;
                        }
                        if let Some(&j) = index.get(t.as_str()) {
                            if comp[i] == comp[j] {
                                ty.boxed = true;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Strongly connected components (Tarjan), iteratively; returns the component of each node.
fn tarjan(edges: &[Vec<usize>]) -> Vec<usize> {
    let n = edges.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comp = vec![usize::MAX; n];
    let mut next = 0;
    let mut ncomp = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&mut (v, ref mut ei)) = work.last_mut() {
            if *ei == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if *ei < edges[v].len() {
                let w = edges[v][*ei];
                *ei += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    #[test]
    fn only_the_edges_of_a_cycle_are_boxed() {
        let m = lower_type(
            r#"<xs:complexType name="Node"><xs:sequence><xs:element name="next" type="tns:Node" minOccurs="0"/><xs:element name="v" type="xs:string"/></xs:sequence></xs:complexType>
<xs:complexType name="A"><xs:sequence><xs:element name="b" type="tns:B"/></xs:sequence></xs:complexType>
<xs:complexType name="B"><xs:sequence><xs:element name="a" type="tns:A" minOccurs="0"/></xs:sequence></xs:complexType>
<xs:complexType name="T"><xs:sequence><xs:element name="n" type="tns:Node"/><xs:element name="a" type="tns:A"/></xs:sequence></xs:complexType>"#,
        );
        assert!(field(strukt(&m, "Node"), "next").ty.boxed);
        assert!(!field(strukt(&m, "Node"), "v").ty.boxed);
        assert!(
            !field(strukt(&m, "T"), "n").ty.boxed,
            "T is not in the cycle"
        );
        let a_b = field(strukt(&m, "A"), "b").ty.boxed;
        let b_a = field(strukt(&m, "B"), "a").ty.boxed;
        assert!(a_b || b_a, "a cycle through two types is broken somewhere");
    }

    #[test]
    fn tarjan_finds_strongly_connected_components() {
        // 0 -> 1 -> 2 -> 0, 3 -> 0, 4 alone.
        let comp = tarjan(&[vec![1], vec![2], vec![0], vec![0], vec![]]);
        assert_eq!(comp[0], comp[1]);
        assert_eq!(comp[1], comp[2]);
        assert_ne!(comp[3], comp[0]);
        assert_ne!(comp[4], comp[0]);
        assert_ne!(comp[4], comp[3]);
    }
}
