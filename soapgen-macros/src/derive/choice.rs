//! An enum of one-value variants: an `xs:choice` (XML Schema Part 1 §3.8), each variant an
//! element, a nested group or a wildcard, written and read as a model group.

use proc_macro2::TokenStream;

use super::impls::Which;
use crate::internals::ast::Variant;
use crate::internals::attr::Container;

/// The `which` impl of the choice `ident` with `variants`.
pub(super) fn expand(
    ident: &syn::Ident,
    c: &Container,
    variants: &[Variant],
    which: Which,
) -> TokenStream {
    let krate = &c.krate;
    let partial = quote::format_ident!("__{}Partial", ident);
    match which {
        Which::ToXml => crate::group::choice_to_group(krate, ident, variants),
        Which::FromXml => crate::group::choice_from_group(krate, ident, &partial, variants),
    }
}
