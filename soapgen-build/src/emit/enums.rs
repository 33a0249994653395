//! Enumerations (XML Schema Part 2 §4.3.5: one variant per value, its documentation kept) and
//! the fault enums of operations (WSDL 1.1 §2.4.5, the runtime's `fault_details!`).

use proc_macro2::TokenStream;
use quote::quote;

use super::{doc_attrs, docs, ident, origin_attrs, Emitter};
use crate::model::ir::{EnumDecl, FaultsDecl};

impl Emitter<'_> {
    pub(super) fn enum_decl(&self, e: &EnumDecl) -> TokenStream {
        let rt = &self.rt;
        let name = ident(&e.name);
        let doc = doc_attrs(e.doc.as_ref(), self.opts.docs);
        let origin = origin_attrs(&e.origin, !doc.is_empty());
        let krate = self.crate_arg();
        let container = if self.rt_attr.is_some() {
            quote!(#[xml(#krate)])
        } else {
            TokenStream::new()
        };
        let variants = e.values.iter().map(|(v, text)| {
            let vi = ident(v);
            let vdoc = format!(" `{text}`");
            // The value's own documentation, after it.
            let more = e
                .value_docs
                .iter()
                .find(|(value, _)| value == text)
                .filter(|_| self.opts.docs)
                .map(|(_, d)| {
                    let d = doc_attrs(Some(d), true);
                    quote!(#[doc = ""] #d)
                })
                .unwrap_or_default();
            quote! {
                #[doc = #vdoc]
                #more
                #[xml(rename = #text)]
                #vi,
            }
        });
        quote! {
            #doc
            #origin
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, #rt::ToXml, #rt::FromXml, #rt::ArbitraryXml)]
            #container
            pub enum #name {
                #(#variants)*
            }
        }
    }

    pub(super) fn faults_decl(&self, f: &FaultsDecl) -> TokenStream {
        let rt = &self.rt;
        let name = ident(&f.name);
        let doc = doc_attrs(f.doc.as_ref(), self.opts.docs);
        let doc = if doc.is_empty() {
            let d = f.doc.as_ref().map(docs::markdown).unwrap_or_default();
            let l = format!(" {d}");
            quote!(#[doc = #l])
        } else {
            doc
        };
        let variants = f.variants.iter().map(|(v, base, q, xsi_type)| {
            let vi = ident(v);
            let ty = self.base(base, true);
            let ns = &q.ns;
            let local = &q.local;
            // The xsi:type only where another variant has the same element.
            let shared = f.variants.iter().filter(|o| &o.2 == q).count() > 1;
            match xsi_type.as_ref().filter(|_| shared) {
                Some(t) => {
                    let vdoc = format!(" Detail element `{q}` of type `{t}`.");
                    let (tns, tlocal) = (&t.ns, &t.local);
                    quote! {
                        #[doc = #vdoc]
                        #vi(#ty) = (#ns, #local, #tns, #tlocal),
                    }
                }
                None => {
                    let vdoc = format!(" Detail element `{q}`.");
                    quote! {
                        #[doc = #vdoc]
                        #vi(#ty) = (#ns, #local),
                    }
                }
            }
        });
        quote! {
            #rt::fault_details! {
                #doc
                #[derive(Clone, PartialEq)]
                pub enum #name {
                    #(#variants)*
                }
            }
        }
    }
}
