//! The derives that write and read each generated type: only the directions the operations use
//! it in ([`Uses`]), all of them on request, the fake's behind its Cargo feature.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Emitter, Fake};
use crate::model::ir::Uses;

impl Emitter<'_> {
    /// The derives that write and read a type used in the directions `uses`: `ToXml` for one
    /// written, `FromXml` and `ArbitraryXml` for one read (nothing is generated for a direction
    /// no operation uses it in); all with `both_directions` or a fake (which reads requests and
    /// writes responses). With the fake behind a Cargo feature, the directions only it needs
    /// come in a `#[cfg_attr(feature = …, derive(…))]`, the second token stream: production
    /// builds compile none of them.
    pub(super) fn codecs(&self, uses: Uses) -> (TokenStream, TokenStream) {
        let rt = &self.rt;
        let all = self.opts.both_directions || self.opts.fake == Fake::Always;
        let (mut on, mut gated) = (Vec::new(), Vec::new());
        for (used, derives) in [
            (uses.write, vec![quote!(#rt::ToXml)]),
            (
                uses.read,
                vec![quote!(#rt::FromXml), quote!(#rt::ArbitraryXml)],
            ),
        ] {
            if used || all {
                on.extend(derives);
            } else if let Fake::Feature(_) = self.opts.fake {
                gated.extend(derives);
            }
        }
        let gated = match &self.opts.fake {
            Fake::Feature(f) if !gated.is_empty() => {
                quote!(#[cfg_attr(feature = #f, derive(#(#gated),*))])
            }
            _ => TokenStream::new(),
        };
        (quote!(#(#on),*), gated)
    }
}
