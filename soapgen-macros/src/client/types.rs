//! The client types of a `#[soap_client]` trait: `{Trait}Client` (async, with a `Call` per
//! operation) and its blocking twin `{Trait}BlockingClient`, their constructors and the constants
//! the description gives (namespace, endpoint, SOAP versions, WS-Addressing).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::internals::attr::ClientArgs;

/// The names the generated items use: the runtime's path, the trait's visibility and name, the
/// clients' names.
pub(crate) struct Names {
    pub(crate) krate: TokenStream,
    pub(crate) vis: syn::Visibility,
    pub(crate) trait_ident: syn::Ident,
    pub(crate) client: syn::Ident,
    pub(crate) blocking: syn::Ident,
}

/// The runtime's `SoapVersion` for `"1.1"` or `"1.2"`.
fn version_expr(krate: &TokenStream, v: &str) -> TokenStream {
    if v == "1.2" {
        quote!(#krate::SoapVersion::Soap12)
    } else {
        quote!(#krate::SoapVersion::Soap11)
    }
}

/// The default endpoint: `endpoint = …`, else the default version's of `endpoints = …`.
fn default_endpoint(a: &ClientArgs) -> Option<String> {
    a.endpoint.clone().or_else(|| {
        a.endpoints
            .iter()
            .find(|(v, _)| Some(v) == a.versions.first())
            .map(|(_, e)| e.clone())
    })
}

/// The constants both clients carry: `NAMESPACE`, `DEFAULT_ENDPOINT`, `DEFAULT_ENDPOINTS`,
/// `SOAP_VERSIONS`, `ADDRESSING`.
pub(super) fn consts(a: &ClientArgs, ns: &str, krate: &TokenStream) -> TokenStream {
    let default_endpoint = match &default_endpoint(a) {
        Some(e) => quote!(::core::option::Option::Some(#e)),
        None => quote!(::core::option::Option::None),
    };
    let versions = a.versions.iter().map(|v| version_expr(krate, v));
    // Per version: `endpoints`, else `endpoint` for every version.
    let per_version: Vec<(&str, &String)> = if a.endpoints.is_empty() {
        a.endpoint
            .iter()
            .flat_map(|e| a.versions.iter().map(move |v| (*v, e)))
            .collect()
    } else {
        a.endpoints.iter().map(|(v, e)| (*v, e)).collect()
    };
    let endpoints = per_version.iter().map(|(v, e)| {
        let ve = version_expr(krate, v);
        quote!((#ve, #e))
    });
    let addressing = match &a.addressing {
        None => Vec::new(),
        Some((wsa, soap)) => {
            let wsa = if *wsa == "2004/08" {
                quote!(#krate::addressing::AddressingVersion::Submission2004)
            } else {
                quote!(#krate::addressing::AddressingVersion::W3C)
            };
            a.versions
                .iter()
                .filter(|v| soap.is_empty() || soap.contains(v))
                .map(|v| {
                    let ve = version_expr(krate, v);
                    quote!((#ve, #wsa))
                })
                .collect()
        }
    };
    quote! {
        /// The trait's default namespace for the operations' elements (`namespace = …`; methods
        /// may use another).
        pub const NAMESPACE: &'static str = #ns;
        /// The endpoint the service description gives (`endpoint = …`), if any.
        pub const DEFAULT_ENDPOINT: ::core::option::Option<&'static str> = #default_endpoint;
        /// The service description's address per SOAP version (`endpoints = …`, else
        /// `endpoint = …` for each version): where its ports of two versions are at different
        /// addresses, [`with_soap_version`](Self::with_soap_version) follows them.
        pub const DEFAULT_ENDPOINTS: &'static [(#krate::SoapVersion, &'static str)] = &[#(#endpoints),*];
        /// The SOAP versions the client speaks, the default (what `new` uses) first.
        pub const SOAP_VERSIONS: &'static [#krate::SoapVersion] = &[#(#versions),*];
        /// The WS-Addressing the description asks for, per SOAP version (`addressing = …`;
        /// empty: none): requests in those versions are addressed unless the
        /// client's `ClientBuilder::addressing` mode says otherwise.
        pub const ADDRESSING: &'static [(#krate::SoapVersion, #krate::addressing::AddressingVersion)] = &[#(#addressing),*];
    }
}

/// The constructors both clients have beside `new`: one per SOAP version when there are
/// several, and the description's own address.
pub(super) fn constructors(a: &ClientArgs, krate: &TokenStream) -> TokenStream {
    let mut ctors = TokenStream::new();
    if a.versions.len() > 1 {
        for v in &a.versions {
            let fname = format_ident!("soap{}", v.replace('.', ""));
            let ve = version_expr(krate, v);
            let d = format!(
                "A client of `endpoint` speaking SOAP {v}, with default settings.\n\n# Errors\n\n\
                 If the HTTP transport cannot be created."
            );
            ctors.extend(quote! {
                #[doc = #d]
                pub fn #fname(endpoint: impl ::core::convert::Into<::std::string::String>) -> #krate::Result<Self> {
                    ::core::result::Result::Ok(Self::new(endpoint)?.__speaking(#ve))
                }
            });
        }
    }
    if let Some(e) = &default_endpoint(a) {
        let d = format!(
            "A client of the default endpoint, `{e}` (the address the service description gives), \
             with default settings.\n\n# Errors\n\nIf the HTTP transport cannot be created."
        );
        ctors.extend(quote! {
            #[doc = #d]
            pub fn with_default_endpoint() -> #krate::Result<Self> {
                Self::new(#e)
            }
        });
    }
    ctors
}

/// `{Trait}Client` with `methods` (the operations) and the trait's impl (`trait_impl`).
pub(super) fn async_client(
    a: &ClientArgs,
    n: &Names,
    common: &TokenStream,
    ctors: &TokenStream,
    inherent: &TokenStream,
    trait_impl: &TokenStream,
) -> TokenStream {
    let krate = &n.krate;
    let (vis, client_ident, trait_ident) = (&n.vis, &n.client, &n.trait_ident);
    let default_version = version_expr(krate, a.versions[0]);
    let version_list = a.versions.join(", ");
    let client_doc = format!(
        "A SOAP client for [`{trait_ident}`] (SOAP {version_list}), generated by `#[soap_client]`. \
         Cheap to clone; share it across tasks."
    );
    let krate_s = krate.to_string().replace(' ', "");
    let new_doc = format!(
        "A client of `endpoint` with default settings (see \
         [`Client::builder`]({krate_s}::Client::builder) for more), speaking the default SOAP \
         version.\n\n# Errors\n\nIf the HTTP transport cannot be created."
    );
    let from_client_doc = format!(
        "Wraps a configured [`Client`]({krate_s}::Client), speaking the default SOAP version. Does \
         no work: O(1)."
    );
    let common_consts = common;
    let async_ctors = ctors;
    quote! {
        #[doc = #client_doc]
        #[derive(Debug, Clone)]
        #vis struct #client_ident {
            client: #krate::Client,
            version: #krate::SoapVersion,
        }

        // Attachments convert to and from `mime::Attachment`, which may be the type itself.
        #[allow(clippy::useless_conversion)]
        impl #client_ident {
            #common_consts

            #[doc = #new_doc]
            pub fn new(endpoint: impl ::core::convert::Into<::std::string::String>) -> #krate::Result<Self> {
                ::core::result::Result::Ok(Self::from_client(#krate::Client::new(endpoint)?))
            }

            #async_ctors

            #[doc = #from_client_doc]
            pub const fn from_client(client: #krate::Client) -> Self {
                Self { client, version: #default_version }
            }

            /// The same client speaking SOAP `version` (one of
            /// [`SOAP_VERSIONS`](Self::SOAP_VERSIONS) unless you know the server takes another).
            /// A client at the description's address of its current version moves to that of
            /// `version` ([`DEFAULT_ENDPOINTS`](Self::DEFAULT_ENDPOINTS): WCF publishes its SOAP
            /// 1.2 `wsHttpBinding` port at its own URL); a client at another address stays there.
            #[must_use]
            pub fn with_soap_version(mut self, version: #krate::SoapVersion) -> Self {
                let at = |v: #krate::SoapVersion| {
                    Self::DEFAULT_ENDPOINTS
                        .iter()
                        .find(|(w, _)| *w == v)
                        .map(|(_, e)| *e)
                };
                if let (::core::option::Option::Some(from), ::core::option::Option::Some(to)) =
                    (at(self.version), at(version))
                {
                    if from != to && self.client.endpoint() == from {
                        self.client = self.client.with_endpoint(to);
                    }
                }
                self.version = version;
                self
            }

            #[doc(hidden)]
            #[must_use]
            pub const fn __speaking(mut self, version: #krate::SoapVersion) -> Self {
                self.version = version;
                self
            }

            /// The SOAP version requests are sent in.
            pub const fn soap_version(&self) -> #krate::SoapVersion {
                self.version
            }

            /// The same client with `blocks` in the SOAP Header of every request it sends
            /// (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2), each replacing the client's block of its
            /// element name: for one call, or a few. O(1) apart from copying the settings.
            #[must_use]
            pub fn with_soap_headers(
                &self,
                blocks: impl ::core::iter::IntoIterator<Item = #krate::header::HeaderBlock>,
            ) -> Self {
                Self { client: self.client.with_soap_headers(blocks), version: self.version }
            }

            /// The same client with `value` as the block of the declared header `header` on
            /// every request (WSDL 1.1 §3.7 `soap:header`; the client's `…_HEADER` constants),
            /// replacing the client's block of that element: set once for a session, or for
            /// one call (`svc.with_header(…).operation(…)`). A value that cannot be written
            /// fails each call with its `EncodeError`. See `Client::with_header`.
            #[must_use]
            pub fn with_header<__H: #krate::ToXml>(
                &self,
                header: #krate::header::DeclaredHeader<__H>,
                value: &__H,
            ) -> Self {
                Self { client: self.client.with_header(header, value), version: self.version }
            }

            /// The underlying client.
            pub fn client(&self) -> &#krate::Client {
                &self.client
            }

            #inherent
        }

        impl #trait_ident for #client_ident {
            #trait_impl
        }
    }
}

/// `{Trait}BlockingClient` with `blocking_methods` (the operations, blocking).
pub(super) fn blocking_client(
    n: &Names,
    common: &TokenStream,
    ctors: &TokenStream,
    blocking_methods: &TokenStream,
) -> TokenStream {
    let krate = &n.krate;
    let (vis, client_ident, blocking_ident) = (&n.vis, &n.client, &n.blocking);
    let krate_s = krate.to_string().replace(' ', "");
    let blocking_from_client_doc = format!(
        "A blocking client over an existing [`Client`]({krate_s}::Client), speaking the default \
         SOAP version.\n\n# Errors\n\nIf the runtime cannot be created."
    );
    let bdoc = format!(
        "The blocking form of [`{client_ident}`]: each method drives the call on a private \
         single-threaded runtime. Do not call it from async code."
    );
    let common_consts = common;
    let blocking_ctors = ctors;
    quote! {
        #[doc = #bdoc]
        #[derive(Debug, Clone)]
        #vis struct #blocking_ident {
            inner: #client_ident,
            runtime: #krate::blocking::BlockingRuntime,
        }

        impl #blocking_ident {
            #common_consts

            /// A blocking client of `endpoint` with default settings, speaking the default
            /// SOAP version.
            ///
            /// # Errors
            ///
            /// If the HTTP client or the runtime cannot be created.
            pub fn new(endpoint: impl ::core::convert::Into<::std::string::String>) -> #krate::Result<Self> {
                Self::from_client(#krate::Client::new(endpoint)?)
            }

            #blocking_ctors

            #[doc = #blocking_from_client_doc]
            pub fn from_client(client: #krate::Client) -> #krate::Result<Self> {
                let runtime = #krate::blocking::BlockingRuntime::new().map_err(|e| {
                    #krate::Error::Transport(#krate::TransportError::new(
                        #krate::error::TransportErrorKind::Other,
                        client.endpoint(),
                        ::std::format!("cannot start the blocking runtime: {e}"),
                        ::core::option::Option::None,
                    ))
                })?;
                ::core::result::Result::Ok(Self { inner: #client_ident::from_client(client), runtime })
            }

            /// The same client speaking SOAP `version` (one of
            /// [`SOAP_VERSIONS`](Self::SOAP_VERSIONS) unless you know the server takes another).
            /// A client at the description's address of its current version moves to that of
            /// `version` ([`DEFAULT_ENDPOINTS`](Self::DEFAULT_ENDPOINTS)); a client at another
            /// address stays there.
            #[must_use]
            pub fn with_soap_version(mut self, version: #krate::SoapVersion) -> Self {
                self.inner = self.inner.with_soap_version(version);
                self
            }

            #[doc(hidden)]
            #[must_use]
            pub fn __speaking(mut self, version: #krate::SoapVersion) -> Self {
                self.inner = self.inner.__speaking(version);
                self
            }

            /// The SOAP version requests are sent in.
            pub fn soap_version(&self) -> #krate::SoapVersion {
                self.inner.soap_version()
            }

            /// The same client with `blocks` in the SOAP Header of every request it sends
            /// (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2), each replacing the client's block of its
            /// element name: for one call, or a few.
            #[must_use]
            pub fn with_soap_headers(
                &self,
                blocks: impl ::core::iter::IntoIterator<Item = #krate::header::HeaderBlock>,
            ) -> Self {
                Self { inner: self.inner.with_soap_headers(blocks), runtime: ::core::clone::Clone::clone(&self.runtime) }
            }

            /// The same client with `value` as the block of the declared header `header` on
            /// every request (WSDL 1.1 §3.7 `soap:header`; the client's `…_HEADER` constants),
            /// replacing the client's block of that element. See the async client's
            /// `with_header`.
            #[must_use]
            pub fn with_header<__H: #krate::ToXml>(
                &self,
                header: #krate::header::DeclaredHeader<__H>,
                value: &__H,
            ) -> Self {
                Self { inner: self.inner.with_header(header, value), runtime: ::core::clone::Clone::clone(&self.runtime) }
            }

            /// The async client this one drives.
            pub fn as_async(&self) -> &#client_ident {
                &self.inner
            }

            /// Runs the call that `call` makes on the async client and returns it with what
            /// came with it: a `Response` (`header::Response`) holding the typed
            /// result, every SOAP header block of the response (SOAP 1.1 §4.2, SOAP 1.2
            /// Part 1 §5.2; typed with `Response::header`, the others as XML), the HTTP
            /// status and the HTTP header fields. The blocking form of
            /// `Call::with_response`:
            /// `svc.with_response(|c| c.get_order(id))`.
            ///
            /// # Errors
            ///
            /// As the plain method; a call made where a tokio runtime is current is
            /// refused as every blocking call is (`TransportErrorKind::BlockingInAsync`).
            pub fn with_response<__T, __E: ::core::convert::From<#krate::Error>>(
                &self,
                call: impl ::core::ops::FnOnce(&#client_ident) -> #krate::Call<__T, __E>,
            ) -> ::core::result::Result<#krate::header::Response<__T>, __E> {
                call(&self.inner).with_response().wait(&self.runtime)
            }

            #blocking_methods
        }
    }
}
