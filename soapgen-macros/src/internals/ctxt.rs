//! The context of one macro call: its errors, collected with their spans and reported together
//! (as serde_derive's `Ctxt`), and where attribute keys are read.

/// Collects errors so that every problem in an item is reported at once.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, e: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(e),
            None => self.0 = Some(e),
        }
    }

    pub(crate) fn finish(self) -> Option<proc_macro2::TokenStream> {
        self.0.map(|e| e.to_compile_error())
    }

    /// Reads the keys of each attribute of `attrs` with `key`, which says whether it knows the key
    /// (`Ok(false)`: an unknown one, an error naming the keys `site` takes). An attribute's first
    /// error is kept and the next attribute read, so that every mistake is reported.
    pub(crate) fn parse_keys<'a>(
        &mut self,
        attrs: impl IntoIterator<Item = &'a syn::Attribute>,
        site: &KeySite,
        mut key: impl FnMut(&syn::meta::ParseNestedMeta<'_>) -> syn::Result<bool>,
    ) {
        for attr in attrs {
            let r = attr.parse_nested_meta(|meta| {
                if key(&meta)? {
                    return Ok(());
                }
                Err(meta.error(format!(
                    "unknown {} attribute on {}; expected {}",
                    site.attribute,
                    site.on,
                    super::occurs::one_of(site.keys, "`")
                )))
            });
            if let Err(e) = r {
                self.push(e);
            }
        }
    }
}

/// Where [`Errors::parse_keys`] reads keys: the attribute (`xml`, `soap`), what it is on (`a
/// field`) and the keys it takes there (one of [`soapgen_contract::keys`]).
pub(crate) struct KeySite {
    pub(crate) attribute: &'static str,
    pub(crate) on: &'static str,
    pub(crate) keys: &'static [&'static str],
}
