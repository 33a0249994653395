//! PayPal's classic API: `GetBalance` and `GetTransactionDetails`.

use soapgen_tests::canned::{http, serve, Behaviour};

mod client {
    soapgen_runtime::include_client!("paypal");
}

/// The credentials header as PayPal's classic API takes it (API signature: username, password
/// and signature), set once on the client as its SDK users do.
fn paypal_client(url: String) -> client::PayPalApiInterfaceClient {
    use client::types::*;
    use client::PayPalApiInterfaceClient as PayPal;
    let credentials = UserIdPasswordType {
        signature: Some("AFcWxV21C7fd0v3bYYYRCpSSRl31A-sig".into()),
        ..UserIdPasswordType::new("seller_api1.example.com".into(), "1395838393".into())
    };
    PayPal::new(url).unwrap().with_header(
        PayPal::REQUESTER_CREDENTIALS_HEADER,
        &CustomSecurityHeaderType {
            credentials: Some(credentials),
            ..Default::default()
        },
    )
}

/// The envelope PayPal's SOAP API answers in: every namespace declared on the Envelope, its
/// `Security` header (of a type no schema of the WSDL defines) and the `RequesterCredentials`
/// echoed back with their fields emptied, an `id` on the Body, `xsi:type` on most elements and
/// the default namespace redeclared on the base components.
fn paypal_envelope(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" xmlns:SOAP-ENC="http://schemas.xmlsoap.org/soap/encoding/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:cc="urn:ebay:apis:CoreComponentTypes" xmlns:wsu="http://schemas.xmlsoap.org/ws/2002/07/utility" xmlns:saml="urn:oasis:names:tc:SAML:1.0:assertion" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" xmlns:wsse="http://schemas.xmlsoap.org/ws/2002/12/secext" xmlns:ed="urn:ebay:apis:EnhancedDataTypes" xmlns:ebl="urn:ebay:apis:eBLBaseComponents" xmlns:ns="urn:ebay:api:PayPalAPI"><SOAP-ENV:Header><Security xmlns="http://schemas.xmlsoap.org/ws/2002/12/secext" xsi:type="wsse:SecurityType"></Security><RequesterCredentials xmlns="urn:ebay:api:PayPalAPI" xsi:type="ebl:CustomSecurityHeaderType"><Credentials xmlns="urn:ebay:apis:eBLBaseComponents" xsi:type="ebl:UserIdPasswordType"><Username xsi:type="xs:string"></Username><Password xsi:type="xs:string"></Password><Signature xsi:type="xs:string"></Signature><Subject xsi:type="xs:string"></Subject></Credentials></RequesterCredentials></SOAP-ENV:Header><SOAP-ENV:Body id="_0">{body}</SOAP-ENV:Body></SOAP-ENV:Envelope>"#
    )
}

/// GetBalance of every currency the account holds, answered with a warning
/// (`SuccessWithWarning`): the amounts are simple content with a `currencyID` attribute.
const GET_BALANCE_RESPONSE: &str = r#"<GetBalanceResponse xmlns="urn:ebay:api:PayPalAPI"><Timestamp xmlns="urn:ebay:apis:eBLBaseComponents">2014-03-26T13:42:51Z</Timestamp><Ack xmlns="urn:ebay:apis:eBLBaseComponents">SuccessWithWarning</Ack><CorrelationID xmlns="urn:ebay:apis:eBLBaseComponents">8a2f1e5d3c6b4</CorrelationID><Errors xmlns="urn:ebay:apis:eBLBaseComponents" xsi:type="ebl:ErrorType"><ShortMessage xsi:type="xs:string">Deprecated API version</ShortMessage><LongMessage xsi:type="xs:string">The API version you sent is deprecated; send a current Version.</LongMessage><ErrorCode xsi:type="xs:token">11452</ErrorCode><SeverityCode xmlns="urn:ebay:apis:eBLBaseComponents">Warning</SeverityCode><ErrorParameters xsi:type="ebl:ErrorParameterType" ParamID="Version"><Value xsi:type="xs:string">93.0</Value></ErrorParameters></Errors><Version xmlns="urn:ebay:apis:eBLBaseComponents">93.0</Version><Build xmlns="urn:ebay:apis:eBLBaseComponents">10433064</Build><Balance xsi:type="cc:BasicAmountType" currencyID="USD">1032.57</Balance><BalanceTimeStamp xsi:type="xs:dateTime">2014-03-26T13:42:51Z</BalanceTimeStamp><BalanceHoldings xsi:type="cc:BasicAmountType" currencyID="USD">1032.57</BalanceHoldings><BalanceHoldings xsi:type="cc:BasicAmountType" currencyID="EUR">12.00</BalanceHoldings><BalanceHoldings xsi:type="cc:BasicAmountType" currencyID="JPY">0</BalanceHoldings></GetBalanceResponse>"#;

#[tokio::test]
async fn paypal_get_balance_with_its_credentials_header_and_a_warning() {
    use client::types::*;
    let response = paypal_envelope(GET_BALANCE_RESPONSE);
    let server = serve(Behaviour::Raw(http(
        200,
        "text/xml; charset=utf-8",
        response.as_bytes(),
    )));
    let paypal = paypal_client(server.url());
    let request = GetBalanceReq::new(GetBalanceRequestType {
        return_all_currencies: Some("1".into()),
        ..GetBalanceRequestType::new("93.0".into())
    });
    let balance = paypal.get_balance(request).await.unwrap();
    assert_eq!(balance.ack, AckCodeType::SuccessWithWarning);
    assert_eq!(balance.correlation_id.as_deref(), Some("8a2f1e5d3c6b4"));
    assert_eq!(
        (balance.version.as_str(), balance.build.as_str()),
        ("93.0", "10433064")
    );
    let [warning] = &balance.errors[..] else {
        panic!("{:?}", balance.errors)
    };
    assert_eq!(warning.severity_code, SeverityCodeType::Warning);
    assert_eq!(warning.error_code, "11452");
    assert_eq!(
        warning.error_parameters,
        [ErrorParameterType {
            value: "93.0".into(),
            param_id: Some("Version".into()),
        }]
    );
    assert_eq!(
        balance.balance,
        BasicAmountType::new("1032.57".into(), CurrencyCodeType::Usd)
    );
    assert_eq!(
        balance.balance_time_stamp.to_string(),
        "2014-03-26T13:42:51Z"
    );
    let holdings: Vec<(CurrencyCodeType, &str)> = balance
        .balance_holdings
        .iter()
        .map(|a| (a.currency_id, a.value.as_str()))
        .collect();
    assert_eq!(
        holdings,
        [
            (CurrencyCodeType::Usd, "1032.57"),
            (CurrencyCodeType::Eur, "12.00"),
            (CurrencyCodeType::Jpy, "0")
        ]
    );
    // What went on the wire: the credentials once, in the header, in eBL's namespace.
    let sent = server.last_request();
    let body = &sent[sent.find("<?xml").unwrap()..];
    assert_eq!(body.matches(":RequesterCredentials").count(), 2, "{body}");
    for part in [
        ">seller_api1.example.com</",
        ">1395838393</",
        ">AFcWxV21C7fd0v3bYYYRCpSSRl31A-sig</",
        r#"xmlns:ns1="urn:ebay:apis:eBLBaseComponents""#,
        "<tns:GetBalanceReq><tns:GetBalanceRequest>",
        ">93.0</",
        "<tns:ReturnAllCurrencies>1</tns:ReturnAllCurrencies>",
    ] {
        assert!(body.contains(part), "{part} not in {body}");
    }
    let header = &body[..body.find("Body>").unwrap()];
    assert!(header.contains("seller_api1.example.com"), "{header}");
}

/// GetTransactionDetails of an Express Checkout payment: nested records of PayPal's base
/// components with the fields it has no value for sent empty (strings) or left out, amounts
/// with their currency, two items, the empty `Subscription` and `Auction` PayPal writes for a
/// payment that is neither, with their attributes empty.
const GET_TRANSACTION_DETAILS_RESPONSE: &str = r#"<GetTransactionDetailsResponse xmlns="urn:ebay:api:PayPalAPI"><Timestamp xmlns="urn:ebay:apis:eBLBaseComponents">2014-03-26T14:02:11Z</Timestamp><Ack xmlns="urn:ebay:apis:eBLBaseComponents">Success</Ack><CorrelationID xmlns="urn:ebay:apis:eBLBaseComponents">d3a5f2c1b9e07</CorrelationID><Version xmlns="urn:ebay:apis:eBLBaseComponents">93.0</Version><Build xmlns="urn:ebay:apis:eBLBaseComponents">10433064</Build><PaymentTransactionDetails xmlns="urn:ebay:apis:eBLBaseComponents" xsi:type="ebl:PaymentTransactionType"><ReceiverInfo xsi:type="ebl:ReceiverInfoType"><Business xsi:type="ebl:EmailAddressType">seller@example.com</Business><Receiver xsi:type="ebl:EmailAddressType">seller@example.com</Receiver><ReceiverID xsi:type="ebl:UserIDType">QF3V4BXTLSJ8W</ReceiverID></ReceiverInfo><PayerInfo xsi:type="ebl:PayerInfoType"><Payer xsi:type="ebl:EmailAddressType">buyer@example.com</Payer><PayerID xsi:type="ebl:UserIDType">9ABCQ7RFX7NWE</PayerID><PayerStatus xsi:type="ebl:PayPalUserStatusCodeType">verified</PayerStatus><PayerName xsi:type="ebl:PersonNameType"><Salutation xmlns="urn:ebay:apis:eBLBaseComponents"></Salutation><FirstName xmlns="urn:ebay:apis:eBLBaseComponents">Jane</FirstName><MiddleName xmlns="urn:ebay:apis:eBLBaseComponents"></MiddleName><LastName xmlns="urn:ebay:apis:eBLBaseComponents">Doe</LastName><Suffix xmlns="urn:ebay:apis:eBLBaseComponents"></Suffix></PayerName><PayerCountry xsi:type="ebl:CountryCodeType">US</PayerCountry><PayerBusiness xsi:type="xs:string"></PayerBusiness><Address xsi:type="ebl:AddressType"><Name xsi:type="xs:string">Jane Doe</Name><Street1 xsi:type="xs:string">1 Main St</Street1><Street2 xsi:type="xs:string"></Street2><CityName xsi:type="xs:string">San Jose</CityName><StateOrProvince xsi:type="xs:string">CA</StateOrProvince><CountryName></CountryName><PostalCode xsi:type="xs:string">95131</PostalCode><AddressOwner xsi:type="ebl:AddressOwnerCodeType">PayPal</AddressOwner><AddressStatus xsi:type="ebl:AddressStatusCodeType">Confirmed</AddressStatus></Address></PayerInfo><PaymentInfo xsi:type="ebl:PaymentInfoType"><TransactionID>8MC585209K746392H</TransactionID><ParentTransactionID xsi:type="ebl:TransactionId"></ParentTransactionID><ReceiptID></ReceiptID><TransactionType xsi:type="ebl:PaymentTransactionCodeType">express-checkout</TransactionType><PaymentType xsi:type="ebl:PaymentCodeType">instant</PaymentType><PaymentDate xsi:type="xs:dateTime">2014-03-26T13:58:40Z</PaymentDate><GrossAmount xsi:type="cc:BasicAmountType" currencyID="USD">29.90</GrossAmount><FeeAmount xsi:type="cc:BasicAmountType" currencyID="USD">1.17</FeeAmount><TaxAmount xsi:type="cc:BasicAmountType" currencyID="USD">0.00</TaxAmount><ExchangeRate xsi:type="xs:string"></ExchangeRate><PaymentStatus xsi:type="ebl:PaymentStatusCodeType">Completed</PaymentStatus><PendingReason xsi:type="ebl:PendingStatusCodeType">none</PendingReason><ReasonCode xsi:type="ebl:ReversalReasonCodeType">none</ReasonCode><ProtectionEligibility xsi:type="xs:string">Eligible</ProtectionEligibility><ProtectionEligibilityType xsi:type="xs:string">ItemNotReceivedEligible,UnauthorizedPaymentEligible</ProtectionEligibilityType><Subject xsi:type="xs:string"></Subject></PaymentInfo><PaymentItemInfo xsi:type="ebl:PaymentItemInfoType"><InvoiceID xsi:type="xs:string">INV-20140326-0042</InvoiceID><Custom xsi:type="xs:string"></Custom><Memo xsi:type="xs:string"></Memo><SalesTax xsi:type="xs:string">0.00</SalesTax><PaymentItem xsi:type="ebl:PaymentItemType"><Name xsi:type="xs:string">Widget</Name><Number xsi:type="xs:string">W-1</Number><Quantity xsi:type="xs:string">2</Quantity><SalesTax xsi:type="xs:string"></SalesTax><Amount xsi:type="cc:BasicAmountType" currencyID="USD">9.95</Amount></PaymentItem><PaymentItem xsi:type="ebl:PaymentItemType"><Name xsi:type="xs:string">Gadget &amp; case</Name><Number xsi:type="xs:string">G-7</Number><Quantity xsi:type="xs:string">1</Quantity><SalesTax xsi:type="xs:string"></SalesTax><Amount xsi:type="cc:BasicAmountType" currencyID="USD">10.00</Amount></PaymentItem><Subscription xsi:type="ebl:SubscriptionInfoType" recurring="" reattempt=""><SubscriptionID xsi:type="xs:string"></SubscriptionID><Username xsi:type="xs:string"></Username><Password xsi:type="xs:string"></Password><Recurrences xsi:type="xs:string"></Recurrences></Subscription><Auction xsi:type="ebl:AuctionInfoType" multiItem=""></Auction></PaymentItemInfo></PaymentTransactionDetails><ThreeDSecureDetails xmlns="urn:ebay:apis:eBLBaseComponents" xsi:type="ebl:ThreeDSecureInfoType"></ThreeDSecureDetails></GetTransactionDetailsResponse>"#;

#[tokio::test]
async fn paypal_get_transaction_details_of_an_express_checkout_payment() {
    use client::types::*;
    let response = paypal_envelope(GET_TRANSACTION_DETAILS_RESPONSE);
    let server = serve(Behaviour::Raw(http(
        200,
        "text/xml; charset=utf-8",
        response.as_bytes(),
    )));
    let paypal = paypal_client(server.url());
    let request = GetTransactionDetailsReq::new(GetTransactionDetailsRequestType::new(
        "93.0".into(),
        "8MC585209K746392H".into(),
    ));
    let details = paypal.get_transaction_details(request).await.unwrap();
    assert_eq!(details.ack, AckCodeType::Success);
    assert!(details.errors.is_empty());
    let tx = &details.payment_transaction_details;
    assert_eq!(tx.receiver_info.receiver_id, "QF3V4BXTLSJ8W");
    let payer = &tx.payer_info;
    assert_eq!(payer.payer.as_deref(), Some("buyer@example.com"));
    assert_eq!(payer.payer_status, Some(PayPalUserStatusCodeType::Verified));
    assert_eq!(payer.payer_country, Some(CountryCodeType::Us));
    let name = &payer.payer_name;
    assert_eq!(
        (name.first_name.as_deref(), name.last_name.as_deref()),
        (Some("Jane"), Some("Doe"))
    );
    assert_eq!(name.salutation.as_deref(), Some(""));
    let address = payer.address.as_ref().unwrap();
    assert_eq!(address.street2.as_deref(), Some(""));
    assert_eq!(address.country, None);
    assert_eq!(
        address.address_status,
        Some(AddressStatusCodeType::Confirmed)
    );
    let info = &tx.payment_info;
    assert_eq!(info.transaction_id.as_deref(), Some("8MC585209K746392H"));
    assert_eq!(info.parent_transaction_id.as_deref(), Some(""));
    assert_eq!(
        info.transaction_type,
        PaymentTransactionCodeType::ExpressCheckout
    );
    assert_eq!(info.payment_status, PaymentStatusCodeType::Completed);
    assert_eq!(info.pending_reason, Some(PendingStatusCodeType::None));
    assert_eq!(
        info.gross_amount,
        Some(BasicAmountType::new("29.90".into(), CurrencyCodeType::Usd))
    );
    assert_eq!(
        info.fee_amount.as_ref().map(|a| a.value.as_str()),
        Some("1.17")
    );
    assert_eq!(info.settle_amount, None);
    assert_eq!(
        info.payment_date
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("2014-03-26T13:58:40Z")
    );
    let items = tx.payment_item_info.as_ref().unwrap();
    assert_eq!(items.invoice_id.as_deref(), Some("INV-20140326-0042"));
    let lines: Vec<(&str, &str, &str)> = items
        .payment_item
        .iter()
        .map(|i| {
            (
                i.name.as_deref().unwrap_or_default(),
                i.quantity.as_deref().unwrap_or_default(),
                i.amount.as_ref().map_or("", |a| a.value.as_str()),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [("Widget", "2", "9.95"), ("Gadget & case", "1", "10.00")]
    );
    let subscription = items.subscription.as_ref().unwrap();
    assert_eq!(
        (
            subscription.subscription_id.as_str(),
            subscription.recurring.as_str()
        ),
        ("", "")
    );
    assert!(subscription.terms.is_empty());
    assert_eq!(items.auction.as_ref().unwrap().multi_item, "");
    assert_eq!(
        details.three_d_secure_details,
        ThreeDSecureInfoType::default()
    );
    // What went on the wire: the transaction asked for, in PayPal's API namespace.
    let sent = server.last_request();
    let body = &sent[sent.find("<?xml").unwrap()..];
    for part in [
        "<tns:GetTransactionDetailsReq><tns:GetTransactionDetailsRequest>",
        "<tns:TransactionID>8MC585209K746392H</tns:TransactionID>",
        ">AFcWxV21C7fd0v3bYYYRCpSSRl31A-sig</",
    ] {
        assert!(body.contains(part), "{part} not in {body}");
    }
}
