//! Operation selection compiles: five operations of e-conomic (tests/corpus, 1,511 operations and
//! 246 types), generated at build time with `Builder::operations` (tests/build.rs), keep 16 types
//! and compile; requests are built and written, a response read, with the kept types only.

use soapgen_runtime::xml::{self, Name};

mod economic5 {
    soapgen_runtime::include_client!("economic5");
}
use economic5::types::*;

const NS: &str = "http://e-conomic.com";

#[test]
fn the_selected_types_build_write_and_read() {
    // A handle is sent and received: written and read.
    let handle = DebtorHandle {
        number: Some("7".into()),
    };
    let xml = xml::to_string(&handle, Name::new(NS, "DebtorHandle")).unwrap();
    assert_eq!(xml::from_str::<DebtorHandle>(&xml).unwrap(), handle);
    // A debtor's data is only received: read (no writer is generated for it).
    let data: DebtorData = xml::from_str(
        r#"<DebtorData xmlns="http://e-conomic.com"><VatZone>HomeCountry</VatZone><IsAccessible>true</IsAccessible></DebtorData>"#,
    )
    .unwrap();
    assert_eq!(data, DebtorData::new(VatZone::HomeCountry, true));
    let handles = ArrayOfDebtorHandle::default();
    assert!(handles.debtor_handle.is_empty());
}

/// Compiled, not run: the selected methods, in both SOAP versions (one client for both bindings).
#[allow(dead_code)]
async fn the_selected_methods(
    c: &economic5::EconomicWebServiceClient,
) -> Result<(), soapgen_runtime::Error> {
    let c12 = c
        .clone()
        .with_soap_version(soapgen_runtime::SoapVersion::Soap12);
    let _token = c.connect(1, Some("u".into()), Some("p".into())).await?;
    let all = c.debtor_get_all().await?.unwrap_or_default();
    for h in all
        .debtor_handle
        .into_iter()
        .filter_map(|h| h.into_option())
    {
        let _ = c12.debtor_get_data(Some(h)).await?;
    }
    let _ = c.debtor_find_by_name(Some("x".into())).await?;
    let _ = c.invoice_get_data(Some(InvoiceHandle::new(1))).await?;
    Ok(())
}
