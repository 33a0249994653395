//! The large public APIs of the corpus, called as their users write the calls, against responses
//! shaped as those services send them (written from the services' published documentation and
//! samples): what a user meets on the last mile, beyond what the peers of the other tests show.
//!
//! - Exchange Web Services `FindItem` (`tests/corpus/wsdltophp/tests/resources/ews/services.wsdl`,
//!   generated with `--operation FindItem`: 1,131 types): the `RequestServerVersion` header set
//!   once on the client, the request built with `new` and the typed folder id, the reply's
//!   `ServerVersionInfo` header read typed, the response messages' choice, the items' `xsi:type`
//!   kinds, attributes everywhere (Microsoft's documented response, with the default namespace
//!   declared on the header block as Exchange writes it).
//! - PayPal's classic API `GetBalance` and `GetTransactionDetails`
//!   (`tests/corpus/wsdltophp/tests/resources/paypal/PayPalSvc.wsdl`): the `RequesterCredentials`
//!   header (API username, password, signature) set once; PayPal's envelope with its unknown
//!   `Security` header and the credentials echoed back emptied, `xsi:type` on most elements;
//!   `SuccessWithWarning` with an `Errors` entry and its parameter; amounts as simple content with
//!   a `currencyID` attribute, repeated; nested records with empty strings and empty records whose
//!   attributes are empty.
//! - Amazon EC2 `DescribeInstances` (`tests/corpus/gowsdl/fixtures/ec2.wsdl`): a filter set, three
//!   reservations (a VPC instance with its network interface, volumes and tags; a stopped one
//!   with its state reason and empty sets; a fleet of 500 with the optional fields left out).
//! - e-conomic (`tests/corpus/wasabi/spec/fixtures/economic.wsdl`, five operations): `Connect`,
//!   then `Debtor_GetAll` (1,000 handles) and `Debtor_GetData` (a nil decimal, an absent field)
//!   in the session ASP.NET's cookie keeps, as .asmx answers (`soap:` prefix, default namespace on
//!   the response element).
//! - ONVIF device management (`tests/corpus/onvif/wsdl/ver10/device/wsdl/devicemgmt.wsdl`),
//!   `GetDeviceInformation` and `GetCapabilities` with the WS-Security UsernameToken digest ONVIF
//!   clients send, SOAP 1.2 as a camera's gSOAP server answers (every service's prefix declared
//!   on the Envelope), the vendor's capabilities under an `xs:any` decoded by the user.

use soapgen_tests::canned::{http, serve, Behaviour};

mod ews {
    soapgen_runtime::include_client!("ews");
}

/// A FindItem response as Exchange Online answers (the shape of Microsoft's "FindItem operation"
/// sample: `ServerVersionInfo` in the header, `m:`/`t:` prefixes, paging attributes on
/// `RootFolder`).
const FIND_ITEM_RESPONSE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">
  <s:Header>
    <h:ServerVersionInfo MajorVersion="15" MinorVersion="20" MajorBuildNumber="6678" MinorBuildNumber="24" Version="V2018_01_08" xmlns:h="http://schemas.microsoft.com/exchange/services/2006/types" xmlns="http://schemas.microsoft.com/exchange/services/2006/types" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/>
  </s:Header>
  <s:Body xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
    <m:FindItemResponse xmlns:m="http://schemas.microsoft.com/exchange/services/2006/messages" xmlns:t="http://schemas.microsoft.com/exchange/services/2006/types">
      <m:ResponseMessages>
        <m:FindItemResponseMessage ResponseClass="Success">
          <m:ResponseCode>NoError</m:ResponseCode>
          <m:RootFolder IndexedPagingOffset="2" TotalItemsInView="2" IncludesLastItemInRange="true">
            <t:Items>
              <t:Message>
                <t:ItemId Id="AAMkAGY1=" ChangeKey="CQAAABYA"/>
                <t:Subject>Quarterly report</t:Subject>
              </t:Message>
              <t:Message>
                <t:ItemId Id="AAMkAGY2=" ChangeKey="CQAAABYB"/>
                <t:Subject>Lunch &amp; learn</t:Subject>
              </t:Message>
            </t:Items>
          </m:RootFolder>
        </m:FindItemResponseMessage>
      </m:ResponseMessages>
    </m:FindItemResponse>
  </s:Body>
</s:Envelope>"#;

/// The subjects of the messages a FindItem reply lists: the code an EWS user writes.
fn subjects(resp: &ews::types::FindItemResponseType) -> Vec<String> {
    use ews::types::*;
    let mut out = Vec::new();
    for m in &resp.response_messages.choice {
        let ArrayOfResponseMessagesTypeChoice::FindItemResponseMessage(m) = m else {
            continue;
        };
        let Some(FindItemParentType {
            choice: FindItemParentTypeChoice::Items(items),
            ..
        }) = &m.root_folder
        else {
            continue;
        };
        for item in &items.choice {
            if let ArrayOfRealItemsTypeChoice::Message(MessageTypeKind::MessageType(msg)) = item {
                out.extend(msg.subject.clone());
            }
        }
    }
    out
}

#[tokio::test]
async fn ews_find_item_with_its_version_header_set_once() {
    use ews::types::*;
    use ews::ExchangeServicesClient as Ews;
    let server = serve(Behaviour::Raw(http(
        200,
        "text/xml; charset=utf-8",
        FIND_ITEM_RESPONSE.as_bytes(),
    )));
    // The schema fixes the version attribute (Exchange2013_SP1): `Default` gives it.
    let ews = Ews::new(server.url()).unwrap().with_header(
        Ews::REQUEST_SERVER_VERSION_HEADER,
        &RequestServerVersion::default(),
    );
    let inbox = DistinguishedFolderIdType::new(DistinguishedFolderIdNameType::Inbox);
    let request = FindItemType::new(
        ItemResponseShapeType::new(DefaultShapeNamesType::IdOnly),
        NonEmptyArrayOfBaseFolderIdsType {
            choice: vec![NonEmptyArrayOfBaseFolderIdsTypeChoice::DistinguishedFolderId(inbox)],
        },
        ItemQueryTraversalType::Shallow,
    );
    let resp = ews.find_item(request).with_response().await.unwrap();
    assert_eq!(subjects(&resp.value), ["Quarterly report", "Lunch & learn"]);
    let m = match &resp.value.response_messages.choice[0] {
        ArrayOfResponseMessagesTypeChoice::FindItemResponseMessage(m) => m,
        other => panic!("{other:?}"),
    };
    assert_eq!(m.response_class, ResponseClassType::Success);
    assert_eq!(m.response_code, Some(ResponseCodeType::NoError));
    let root = m.root_folder.as_ref().unwrap();
    assert_eq!(
        (root.total_items_in_view, root.includes_last_item_in_range),
        (Some(2), Some(true))
    );
    let info = resp
        .header(&Ews::SERVER_VERSION_INFO_HEADER)
        .unwrap()
        .unwrap();
    assert_eq!(
        (info.major_version, info.version.as_deref()),
        (Some(15), Some("V2018_01_08"))
    );
    // What went on the wire: the header block once, the request as EWS documents it.
    let sent = server.last_request();
    let body = &sent[sent.find("<?xml").unwrap()..];
    assert_eq!(body.matches(":RequestServerVersion ").count(), 1, "{body}");
    for part in [
        r#"Version="Exchange2013_SP1""#,
        r#"<tns:FindItem Traversal="Shallow">"#,
        ">IdOnly</",
        r#":DistinguishedFolderId xmlns:ns2="http://schemas.microsoft.com/exchange/services/2006/types" Id="inbox"/>"#,
    ] {
        assert!(body.contains(part), "{part} not in {body}");
    }
}

mod paypal {
    soapgen_runtime::include_client!("paypal");
}

/// The credentials header as PayPal's classic API takes it (API signature: username, password
/// and signature), set once on the client as its SDK users do.
fn paypal_client(url: String) -> paypal::PayPalApiInterfaceClient {
    use paypal::types::*;
    use paypal::PayPalApiInterfaceClient as PayPal;
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
    use paypal::types::*;
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
    use paypal::types::*;
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

mod ec2 {
    soapgen_runtime::include_client!("ec2");
}

/// One instance of a VPC as EC2 describes it: placement, monitoring, a network interface with
/// its own group set and attachment, an EBS root volume, tags.
const EC2_VPC_INSTANCE: &str = r#"<item><instanceId>i-0a1b2c3d</instanceId><imageId>ami-bba18dd2</imageId><instanceState><code>16</code><name>running</name></instanceState><privateDnsName>ip-10-0-0-12.ec2.internal</privateDnsName><dnsName>ec2-54-85-12-34.compute-1.amazonaws.com</dnsName><reason/><keyName>deploy</keyName><amiLaunchIndex>0</amiLaunchIndex><productCodes/><instanceType>m3.medium</instanceType><launchTime>2014-03-18T21:47:02.000Z</launchTime><placement><availabilityZone>us-east-1a</availabilityZone><groupName/><tenancy>default</tenancy></placement><monitoring><state>disabled</state></monitoring><subnetId>subnet-1a2b3c4d</subnetId><vpcId>vpc-1a2b3c4d</vpcId><privateIpAddress>10.0.0.12</privateIpAddress><ipAddress>54.85.12.34</ipAddress><sourceDestCheck>true</sourceDestCheck><groupSet><item><groupId>sg-1a2b3c4d</groupId><groupName>web</groupName></item></groupSet><architecture>x86_64</architecture><rootDeviceType>ebs</rootDeviceType><rootDeviceName>/dev/sda1</rootDeviceName><blockDeviceMapping><item><deviceName>/dev/sda1</deviceName><ebs><volumeId>vol-1a2b3c4d</volumeId><status>attached</status><attachTime>2014-03-18T21:47:05.000Z</attachTime><deleteOnTermination>true</deleteOnTermination></ebs></item></blockDeviceMapping><virtualizationType>hvm</virtualizationType><clientToken/><tagSet><item><key>Name</key><value>web-1</value></item><item><key>env</key><value>prod</value></item></tagSet><hypervisor>xen</hypervisor><networkInterfaceSet><item><networkInterfaceId>eni-1a2b3c4d</networkInterfaceId><subnetId>subnet-1a2b3c4d</subnetId><vpcId>vpc-1a2b3c4d</vpcId><description>Primary network interface</description><ownerId>123456789012</ownerId><status>in-use</status><macAddress>0e:5c:2b:1a:3d:4f</macAddress><privateIpAddress>10.0.0.12</privateIpAddress><privateDnsName>ip-10-0-0-12.ec2.internal</privateDnsName><sourceDestCheck>true</sourceDestCheck><groupSet><item><groupId>sg-1a2b3c4d</groupId><groupName>web</groupName></item></groupSet><attachment><attachmentId>eni-attach-1a2b3c4d</attachmentId><deviceIndex>0</deviceIndex><status>attached</status><attachTime>2014-03-18T21:47:02.000Z</attachTime><deleteOnTermination>true</deleteOnTermination></attachment><association><publicIp>54.85.12.34</publicIp><publicDnsName>ec2-54-85-12-34.compute-1.amazonaws.com</publicDnsName><ipOwnerId>amazon</ipOwnerId></association><privateIpAddressesSet><item><privateIpAddress>10.0.0.12</privateIpAddress><privateDnsName>ip-10-0-0-12.ec2.internal</privateDnsName><primary>true</primary><association><publicIp>54.85.12.34</publicIp><publicDnsName>ec2-54-85-12-34.compute-1.amazonaws.com</publicDnsName><ipOwnerId>amazon</ipOwnerId></association></item></privateIpAddressesSet></item></networkInterfaceSet><iamInstanceProfile><arn>arn:aws:iam::123456789012:instance-profile/web</arn><id>AIPAJ2Y3Z4ABCDEFGHIJK</id></iamInstanceProfile><ebsOptimized>false</ebsOptimized></item>"#;

/// A stopped EC2-Classic instance: no public name, the reason it stopped, empty sets.
const EC2_STOPPED_INSTANCE: &str = r#"<item><instanceId>i-9f8e7d6c</instanceId><imageId>ami-7341831a</imageId><instanceState><code>80</code><name>stopped</name></instanceState><privateDnsName/><dnsName/><reason>User initiated (2014-02-11 09:12:44 GMT)</reason><amiLaunchIndex>0</amiLaunchIndex><productCodes/><instanceType>t1.micro</instanceType><launchTime>2014-02-10T17:01:20.000Z</launchTime><placement><availabilityZone>us-east-1d</availabilityZone><groupName/><tenancy>default</tenancy></placement><monitoring><state>disabled</state></monitoring><groupSet/><stateReason><code>Client.UserInitiatedShutdown</code><message>Client.UserInitiatedShutdown: User initiated shutdown</message></stateReason><architecture>i386</architecture><rootDeviceType>ebs</rootDeviceType><rootDeviceName>/dev/sda1</rootDeviceName><blockDeviceMapping/><virtualizationType>paravirtual</virtualizationType><clientToken/><tagSet/><hypervisor>xen</hypervisor><networkInterfaceSet/><ebsOptimized>false</ebsOptimized></item>"#;

/// How many instances the third reservation holds (an Auto Scaling fleet).
const EC2_FLEET: usize = 500;

/// A DescribeInstances response as EC2's SOAP API answers: the response element in EC2's
/// default namespace, reservations with their instances, empty sets written as empty elements,
/// and a fleet of `EC2_FLEET` instances with only the fields EC2 always sends.
fn describe_instances_response() -> String {
    use std::fmt::Write as _;
    let mut fleet = String::new();
    for n in 0..EC2_FLEET {
        let _ = write!(
            fleet,
            "<item><instanceId>i-{n:08x}</instanceId><instanceState><code>16</code><name>running</name></instanceState><privateDnsName>ip-10-1-{}-{}.ec2.internal</privateDnsName><amiLaunchIndex>{n}</amiLaunchIndex><instanceType>c3.large</instanceType><launchTime>2014-03-20T08:00:{:02}.000Z</launchTime><groupSet/><tagSet><item><key>aws:autoscaling:groupName</key><value>workers</value></item></tagSet></item>",
            n / 256,
            n % 256,
            n % 60
        );
    }
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Header/><soapenv:Body><DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2013-10-15/"><requestId>59dbff89-35bd-4eac-99ed-be587EXAMPLE</requestId><reservationSet><item><reservationId>r-1a2b3c4d</reservationId><ownerId>123456789012</ownerId><groupSet/><instancesSet>{EC2_VPC_INSTANCE}</instancesSet></item><item><reservationId>r-5e6f7a8b</reservationId><ownerId>123456789012</ownerId><groupSet><item><groupId>sg-9f8e7d6c</groupId><groupName>default</groupName></item></groupSet><instancesSet>{EC2_STOPPED_INSTANCE}</instancesSet></item><item><reservationId>r-0f0f0f0f</reservationId><ownerId>123456789012</ownerId><groupSet/><instancesSet>{fleet}</instancesSet><requesterId>226008221399</requesterId></item></reservationSet></DescribeInstancesResponse></soapenv:Body></soapenv:Envelope>"#
    )
}

#[tokio::test]
async fn ec2_describe_instances_with_a_filter_over_three_reservations_and_a_fleet() {
    use ec2::types::*;
    let server = serve(Behaviour::Raw(http(
        200,
        "text/xml;charset=UTF-8",
        describe_instances_response().as_bytes(),
    )));
    let ec2 = ec2::AmazonEc2Client::new(server.url()).unwrap();
    let running = FilterType::new(
        "instance-state-name".into(),
        ValueSetType {
            item: vec![
                ValueType::new("running".into()),
                ValueType::new("stopped".into()),
            ],
        },
    );
    let resp = ec2
        .describe_instances(
            DescribeInstancesInfoType::default(),
            Some(FilterSetType {
                item: vec![running],
            }),
            None,
            Some(1000),
        )
        .await
        .unwrap();
    assert_eq!(resp.next_token, None);
    let reservations = &resp.reservation_set.item;
    assert_eq!(reservations.len(), 3);
    // What an EC2 user reads: every instance, its state and its Name tag.
    let instances: Vec<&RunningInstancesItemType> = reservations
        .iter()
        .flat_map(|r| &r.instances_set.item)
        .collect();
    assert_eq!(instances.len(), 2 + EC2_FLEET);
    let name = |i: &RunningInstancesItemType| -> Option<String> {
        i.tag_set
            .as_ref()?
            .item
            .iter()
            .find(|t| t.key == "Name")
            .map(|t| t.value.clone())
    };
    let web = instances[0];
    assert_eq!(
        (
            web.instance_id.as_str(),
            web.instance_state.code,
            name(web).as_deref()
        ),
        ("i-0a1b2c3d", 16, Some("web-1"))
    );
    // EC2's milliseconds are zero: the value is the second.
    assert_eq!(web.launch_time.to_string(), "2014-03-18T21:47:02Z");
    assert_eq!(web.reason.as_deref(), Some(""));
    assert_eq!(web.product_codes, Some(ProductCodesSetType::default()));
    assert_eq!(web.state_reason, None);
    let eni = &web.network_interface_set.as_ref().unwrap().item[0];
    assert_eq!(eni.attachment.device_index, 0);
    assert_eq!(
        eni.association.as_ref().map(|a| a.public_ip.as_str()),
        Some("54.85.12.34")
    );
    let root = &web.block_device_mapping.as_ref().unwrap().item[0];
    assert_eq!(
        root.ebs
            .as_ref()
            .map(|e| (e.volume_id.as_str(), e.delete_on_termination)),
        Some(("vol-1a2b3c4d", Some(true)))
    );
    let stopped = instances[1];
    assert_eq!(stopped.instance_state.name, "stopped");
    assert_eq!(stopped.private_dns_name, "");
    assert_eq!(
        stopped.state_reason.as_ref().map(|s| s.code.as_str()),
        Some("Client.UserInitiatedShutdown")
    );
    assert_eq!(stopped.tag_set, Some(ResourceTagSetType::default()));
    assert_eq!(name(stopped), None);
    assert!(stopped.group_set.item.is_empty());
    assert_eq!(
        reservations[1].group_set.item[0].group_name.as_deref(),
        Some("default")
    );
    let fleet = &reservations[2];
    assert!(fleet.group_set.item.is_empty());
    assert_eq!(fleet.requester_id.as_deref(), Some("226008221399"));
    let last = fleet.instances_set.item.last().unwrap();
    assert_eq!(last.instance_id, format!("i-{:08x}", EC2_FLEET - 1));
    assert_eq!(last.ami_launch_index.as_deref(), Some("499"));
    assert_eq!(
        (last.image_id.as_ref(), last.placement.as_ref()),
        (None, None)
    );
    assert!(fleet
        .instances_set
        .item
        .iter()
        .all(|i| i.instance_state.name == "running"
            && i.tag_set.as_ref().is_some_and(|t| t.item.len() == 1)));
    // What went on the wire: the filter, and an empty instancesSet for "all instances".
    let sent = server.last_request();
    let body = &sent[sent.find("<?xml").unwrap()..];
    for part in [
        "<tns:DescribeInstances>",
        "<tns:instancesSet/>",
        "<tns:filterSet><tns:item><tns:name>instance-state-name</tns:name><tns:valueSet><tns:item><tns:value>running</tns:value></tns:item><tns:item><tns:value>stopped</tns:value></tns:item></tns:valueSet></tns:item></tns:filterSet>",
        "<tns:maxResults>1000</tns:maxResults>",
    ] {
        assert!(body.contains(part), "{part} not in {body}");
    }
    assert!(!body.contains("nextToken"), "{body}");
}

mod economic5 {
    soapgen_runtime::include_client!("economic5");
}

/// An HTTP response as e-conomic's IIS answers (ASP.NET's headers, its session cookie on the
/// first).
fn aspnet(body: &str, cookie: Option<&str>) -> Vec<u8> {
    let cookie = cookie
        .map(|c| format!("Set-Cookie: ASP.NET_SessionId={c}; path=/; HttpOnly\r\n"))
        .unwrap_or_default();
    let mut out = format!(
        "HTTP/1.1 200 OK\r\nCache-Control: private, max-age=0\r\nContent-Type: text/xml; charset=utf-8\r\nServer: Microsoft-IIS/8.5\r\n{cookie}X-AspNet-Version: 4.0.30319\r\nX-Powered-By: ASP.NET\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// An ASP.NET (.asmx) SOAP 1.1 envelope: `soap:` prefix, the XSD namespaces declared on it, the
/// response element in the service's default namespace.
fn asmx(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>{body}</soap:Body></soap:Envelope>"#
    )
}

/// How many debtors the agreement has.
const DEBTORS: usize = 1000;

#[tokio::test]
async fn economic_connect_then_the_debtors_in_one_session() {
    use economic5::types::*;
    use soapgen_runtime::types::{Decimal, OptionalNillable};
    let connect = asmx(
        r#"<ConnectResponse xmlns="http://e-conomic.com"><ConnectResult>7c1d3f0e-5b0a-4f5e-9d8c-2a6b4e1f0c3d</ConnectResult></ConnectResponse>"#,
    );
    let handles: String = (1..=DEBTORS)
        .map(|n| {
            format!(
                "<DebtorHandle><Number>{}</Number></DebtorHandle>",
                10000 + n
            )
        })
        .collect();
    let all = asmx(&format!(
        r#"<Debtor_GetAllResponse xmlns="http://e-conomic.com"><Debtor_GetAllResult>{handles}</Debtor_GetAllResult></Debtor_GetAllResponse>"#
    ));
    // No credit maximum (a null decimal, which .NET writes as nil), no EAN (left out).
    let data = asmx(
        r#"<Debtor_GetDataResponse xmlns="http://e-conomic.com"><Debtor_GetDataResult><Handle><Number>10001</Number></Handle><Number>10001</Number><DebtorGroupHandle><Number>1</Number></DebtorGroupHandle><Name>Jensen &amp; Søn ApS</Name><VatZone>HomeCountry</VatZone><CurrencyHandle><Code>DKK</Code></CurrencyHandle><IsAccessible>true</IsAccessible><Email>bogholderi@jensen-son.dk</Email><Address>Vestergade 12, 2. sal</Address><PostalCode>8000</PostalCode><City>Aarhus C</City><Country>Danmark</Country><CreditMaximum xsi:nil="true" /><VatNumber>DK12345678</VatNumber><TermOfPaymentHandle><Id>2</Id></TermOfPaymentHandle><LayoutHandle><Id>19</Id></LayoutHandle><Balance>-1250.75</Balance></Debtor_GetDataResult></Debtor_GetDataResponse>"#,
    );
    let server = serve(Behaviour::InTurn(vec![
        aspnet(&connect, Some("n3ocwz45kh1rmvu0d2gkqvrb")),
        aspnet(&all, None),
        aspnet(&data, None),
    ]));
    let economic = economic5::EconomicWebServiceClient::new(server.url()).unwrap();
    let token = economic
        .connect(123456, Some("bogholder".into()), Some("hemmeligt".into()))
        .await
        .unwrap();
    assert_eq!(
        token.as_deref(),
        Some("7c1d3f0e-5b0a-4f5e-9d8c-2a6b4e1f0c3d")
    );
    let all = economic.debtor_get_all().await.unwrap().unwrap_or_default();
    let numbers: Vec<String> = all
        .debtor_handle
        .iter()
        .filter_map(|h| h.value()?.number.clone())
        .collect();
    assert_eq!(numbers.len(), DEBTORS);
    assert_eq!(
        (numbers[0].as_str(), numbers[DEBTORS - 1].as_str()),
        ("10001", "11000")
    );
    let first = all
        .debtor_handle
        .into_iter()
        .next()
        .and_then(|h| h.into_option());
    let debtor = economic.debtor_get_data(first).await.unwrap().unwrap();
    assert_eq!(debtor.name.as_deref(), Some("Jensen & Søn ApS"));
    assert_eq!(debtor.vat_zone, VatZone::HomeCountry);
    assert_eq!(debtor.credit_maximum, OptionalNillable::Nil);
    assert_eq!(debtor.ean, None);
    assert_eq!(debtor.balance, Some("-1250.75".parse::<Decimal>().unwrap()));
    assert_eq!(
        debtor.currency_handle.and_then(|c| c.code).as_deref(),
        Some("DKK")
    );
    assert_eq!(debtor.layout_handle.map(|l| l.id), Some(19));
    // What went on the wire: the session cookie of Connect sent back with every later call,
    // ASP.NET's SOAPAction for each.
    let sent = server.requests();
    assert_eq!(sent.len(), 3);
    for part in [
        r#"soapaction: "http://e-conomic.com/Connect""#,
        "<tns:agreementNumber>123456</tns:agreementNumber>",
        "<tns:userName>bogholder</tns:userName>",
    ] {
        assert!(sent[0].contains(part), "{part} not in {}", sent[0]);
    }
    assert!(
        !sent[0].to_ascii_lowercase().contains("\ncookie:"),
        "{}",
        sent[0]
    );
    for (request, action) in sent[1..].iter().zip(["Debtor_GetAll", "Debtor_GetData"]) {
        let lower = request.to_ascii_lowercase();
        assert!(
            lower.contains("\ncookie: asp.net_sessionid=n3ocwz45kh1rmvu0d2gkqvrb"),
            "{request}"
        );
        assert!(
            request.contains(&format!("\"http://e-conomic.com/{action}\"")),
            "{request}"
        );
    }
    assert!(
        sent[2].contains("<tns:entityHandle><tns:Number>10001</tns:Number></tns:entityHandle>"),
        "{}",
        sent[2]
    );
}

mod onvif_device {
    soapgen_runtime::include_client!("onvif_device");
}

/// The SOAP 1.2 envelope of an ONVIF camera's gSOAP server (a Hikvision one): the prefixes of
/// every ONVIF service, the vendor's own among them, declared on the Envelope.
fn camera_envelope(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:soapenc="http://www.w3.org/2003/05/soap-encoding" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tt="http://www.onvif.org/ver10/schema" xmlns:tds="http://www.onvif.org/ver10/device/wsdl" xmlns:trt="http://www.onvif.org/ver10/media/wsdl" xmlns:timg="http://www.onvif.org/ver20/imaging/wsdl" xmlns:tev="http://www.onvif.org/ver10/events/wsdl" xmlns:tptz="http://www.onvif.org/ver20/ptz/wsdl" xmlns:tan="http://www.onvif.org/ver20/analytics/wsdl" xmlns:tst="http://www.onvif.org/ver10/storage/wsdl" xmlns:ter="http://www.onvif.org/ver10/error" xmlns:dn="http://www.onvif.org/ver10/network/wsdl" xmlns:tns1="http://www.onvif.org/ver10/topics" xmlns:tmd="http://www.onvif.org/ver10/deviceIO/wsdl" xmlns:wsa="http://www.w3.org/2005/08/addressing" xmlns:wsnt="http://docs.oasis-open.org/wsn/b-2" xmlns:trc="http://www.onvif.org/ver10/recording/wsdl" xmlns:tse="http://www.onvif.org/ver10/search/wsdl" xmlns:trp="http://www.onvif.org/ver10/replay/wsdl" xmlns:tnshik="http://www.hikvision.com/2011/event/topics" xmlns:hikwsd="http://www.onvifext.com/onvif/ext/ver10/wsdl" xmlns:hikxsd="http://www.onvifext.com/onvif/ext/ver10/schema" xmlns:tr2="http://www.onvif.org/ver20/media/wsdl"><env:Body>{body}</env:Body></env:Envelope>
"#
    )
}

const DEVICE_INFORMATION_RESPONSE: &str = r#"<tds:GetDeviceInformationResponse><tds:Manufacturer>HIKVISION</tds:Manufacturer><tds:Model>DS-2CD2143G0-I</tds:Model><tds:FirmwareVersion>V5.5.82 build 190909</tds:FirmwareVersion><tds:SerialNumber>DS-2CD2143G0-I20190924AAWRD12345678</tds:SerialNumber><tds:HardwareId>88</tds:HardwareId></tds:GetDeviceInformationResponse>"#;

/// GetCapabilities (category All) as the camera answers: every service's address, the
/// vendor's capabilities as an extension element of its own namespace before ONVIF's own
/// extensions, an empty `Extension` where the schema requires one.
const CAPABILITIES_RESPONSE: &str = r#"<tds:GetCapabilitiesResponse><tds:Capabilities><tt:Analytics><tt:XAddr>http://192.168.1.64/onvif/Analytics</tt:XAddr><tt:RuleSupport>true</tt:RuleSupport><tt:AnalyticsModuleSupport>true</tt:AnalyticsModuleSupport></tt:Analytics><tt:Device><tt:XAddr>http://192.168.1.64/onvif/device_service</tt:XAddr><tt:Network><tt:IPFilter>true</tt:IPFilter><tt:ZeroConfiguration>true</tt:ZeroConfiguration><tt:IPVersion6>true</tt:IPVersion6><tt:DynDNS>true</tt:DynDNS><tt:Extension><tt:Dot11Configuration>false</tt:Dot11Configuration><tt:Extension></tt:Extension></tt:Extension></tt:Network><tt:System><tt:DiscoveryResolve>false</tt:DiscoveryResolve><tt:DiscoveryBye>true</tt:DiscoveryBye><tt:RemoteDiscovery>false</tt:RemoteDiscovery><tt:SystemBackup>false</tt:SystemBackup><tt:SystemLogging>true</tt:SystemLogging><tt:FirmwareUpgrade>false</tt:FirmwareUpgrade><tt:SupportedVersions><tt:Major>16</tt:Major><tt:Minor>12</tt:Minor></tt:SupportedVersions><tt:SupportedVersions><tt:Major>2</tt:Major><tt:Minor>60</tt:Minor></tt:SupportedVersions><tt:SupportedVersions><tt:Major>2</tt:Major><tt:Minor>40</tt:Minor></tt:SupportedVersions><tt:SupportedVersions><tt:Major>2</tt:Major><tt:Minor>20</tt:Minor></tt:SupportedVersions><tt:SupportedVersions><tt:Major>2</tt:Major><tt:Minor>10</tt:Minor></tt:SupportedVersions><tt:SupportedVersions><tt:Major>2</tt:Major><tt:Minor>0</tt:Minor></tt:SupportedVersions><tt:Extension><tt:HttpFirmwareUpgrade>true</tt:HttpFirmwareUpgrade><tt:HttpSystemBackup>true</tt:HttpSystemBackup><tt:HttpSystemLogging>false</tt:HttpSystemLogging><tt:HttpSupportInformation>false</tt:HttpSupportInformation></tt:Extension></tt:System><tt:IO><tt:InputConnectors>1</tt:InputConnectors><tt:RelayOutputs>1</tt:RelayOutputs><tt:Extension><tt:Auxiliary>false</tt:Auxiliary><tt:AuxiliaryCommands>nothing</tt:AuxiliaryCommands><tt:Extension></tt:Extension></tt:Extension></tt:IO><tt:Security><tt:TLS1.1>true</tt:TLS1.1><tt:TLS1.2>true</tt:TLS1.2><tt:OnboardKeyGeneration>false</tt:OnboardKeyGeneration><tt:AccessPolicyConfig>true</tt:AccessPolicyConfig><tt:X.509Token>false</tt:X.509Token><tt:SAMLToken>false</tt:SAMLToken><tt:KerberosToken>false</tt:KerberosToken><tt:RELToken>false</tt:RELToken><tt:Extension><tt:TLS1.0>false</tt:TLS1.0><tt:Extension><tt:Dot1X>false</tt:Dot1X><tt:RemoteUserHandling>false</tt:RemoteUserHandling></tt:Extension></tt:Extension></tt:Security></tt:Device><tt:Events><tt:XAddr>http://192.168.1.64/onvif/Events</tt:XAddr><tt:WSSubscriptionPolicySupport>true</tt:WSSubscriptionPolicySupport><tt:WSPullPointSupport>true</tt:WSPullPointSupport><tt:WSPausableSubscriptionManagerInterfaceSupport>false</tt:WSPausableSubscriptionManagerInterfaceSupport></tt:Events><tt:Imaging><tt:XAddr>http://192.168.1.64/onvif/Imaging</tt:XAddr></tt:Imaging><tt:Media><tt:XAddr>http://192.168.1.64/onvif/Media</tt:XAddr><tt:StreamingCapabilities><tt:RTPMulticast>true</tt:RTPMulticast><tt:RTP_TCP>true</tt:RTP_TCP><tt:RTP_RTSP_TCP>true</tt:RTP_RTSP_TCP></tt:StreamingCapabilities><tt:Extension><tt:ProfileCapabilities><tt:MaximumNumberOfProfiles>10</tt:MaximumNumberOfProfiles></tt:ProfileCapabilities></tt:Extension></tt:Media><tt:Extension><hikxsd:hikCapabilities><hikxsd:XAddr>http://192.168.1.64/onvif/hik_ext</hikxsd:XAddr><hikxsd:IOInputSupport>true</hikxsd:IOInputSupport><hikxsd:PrivacyMaskSupport>true</hikxsd:PrivacyMaskSupport><hikxsd:PTZ3DZoomSupport>false</hikxsd:PTZ3DZoomSupport><hikxsd:PTZPatternSupport>false</hikxsd:PTZPatternSupport><hikxsd:Language>2</hikxsd:Language></hikxsd:hikCapabilities><tt:DeviceIO><tt:XAddr>http://192.168.1.64/onvif/DeviceIO</tt:XAddr><tt:VideoSources>1</tt:VideoSources><tt:VideoOutputs>0</tt:VideoOutputs><tt:AudioSources>0</tt:AudioSources><tt:AudioOutputs>0</tt:AudioOutputs><tt:RelayOutputs>1</tt:RelayOutputs></tt:DeviceIO><tt:Recording><tt:XAddr>http://192.168.1.64/onvif/Recording</tt:XAddr><tt:ReceiverSource>false</tt:ReceiverSource><tt:MediaProfileSource>true</tt:MediaProfileSource><tt:DynamicRecordings>false</tt:DynamicRecordings><tt:DynamicTracks>false</tt:DynamicTracks><tt:MaxStringLength>64</tt:MaxStringLength></tt:Recording><tt:Search><tt:XAddr>http://192.168.1.64/onvif/SearchRecording</tt:XAddr><tt:MetadataSearch>false</tt:MetadataSearch></tt:Search><tt:Replay><tt:XAddr>http://192.168.1.64/onvif/Replay</tt:XAddr></tt:Replay></tt:Extension></tds:Capabilities></tds:GetCapabilitiesResponse>"#;

/// The fault a camera answers a wrong password with (ONVIF Core Specification §5.11.2.2).
const NOT_AUTHORIZED: &str = r#"<env:Fault><env:Code><env:Value>env:Sender</env:Value><env:Subcode><env:Value>ter:NotAuthorized</env:Value></env:Subcode></env:Code><env:Reason><env:Text xml:lang="en">The action requested requires authorization and the sender is not authorized</env:Text></env:Reason></env:Fault>"#;

/// The vendor's capabilities, as an ONVIF user who needs them declares them to decode the
/// extension element.
#[derive(Debug, PartialEq, soapgen_runtime::FromXml)]
#[xml(namespace = "http://www.onvifext.com/onvif/ext/ver10/schema")]
struct HikCapabilities {
    #[xml(rename = "XAddr")]
    x_addr: String,
    #[xml(rename = "IOInputSupport")]
    io_input_support: bool,
    #[xml(rename = "PrivacyMaskSupport")]
    privacy_mask_support: bool,
    #[xml(rename = "PTZ3DZoomSupport")]
    ptz_3d_zoom_support: bool,
    #[xml(rename = "PTZPatternSupport")]
    ptz_pattern_support: bool,
    #[xml(rename = "Language")]
    language: i32,
}

#[tokio::test]
async fn onvif_device_information_and_capabilities_with_a_username_token_digest() {
    use onvif_device::types::*;
    use soapgen_runtime::wss::{UsernameToken, WssConfig};
    let soap12 = "application/soap+xml; charset=utf-8";
    let server = serve(Behaviour::InTurn(vec![
        http(
            200,
            soap12,
            camera_envelope(DEVICE_INFORMATION_RESPONSE).as_bytes(),
        ),
        http(
            200,
            soap12,
            camera_envelope(CAPABILITIES_RESPONSE).as_bytes(),
        ),
        http(400, soap12, camera_envelope(NOT_AUTHORIZED).as_bytes()),
    ]));
    // The camera's service address, its admin account: the UsernameToken digest every ONVIF
    // client sends (ONVIF Core Specification §5.12).
    let client = soapgen_runtime::Client::builder(server.url())
        .wss(WssConfig::new().username_token(UsernameToken::digest("admin", "Hik12345")))
        .build()
        .unwrap();
    let camera = onvif_device::DeviceClient::from_client(client);
    let info = camera.get_device_information().await.unwrap();
    assert_eq!(
        (
            info.manufacturer.as_str(),
            info.model.as_str(),
            info.hardware_id.as_str()
        ),
        ("HIKVISION", "DS-2CD2143G0-I", "88")
    );
    let caps = camera
        .get_capabilities(vec![CapabilityCategory::All])
        .await
        .unwrap();
    let device = caps.device.as_ref().unwrap();
    assert_eq!(device.x_addr, "http://192.168.1.64/onvif/device_service");
    let system = device.system.as_ref().unwrap();
    let versions: Vec<(i32, i32)> = system
        .supported_versions
        .iter()
        .map(|v| (v.major, v.minor))
        .collect();
    assert_eq!(
        versions,
        [(16, 12), (2, 60), (2, 40), (2, 20), (2, 10), (2, 0)]
    );
    assert_eq!(
        system
            .extension
            .as_ref()
            .and_then(|e| e.http_firmware_upgrade),
        Some(true)
    );
    let security = device.security.as_ref().unwrap();
    assert!(security.tls1_2 && !security.x_509_token);
    assert_eq!(security.extension.as_ref().map(|e| e.tls1_0), Some(false));
    let io = device.io.as_ref().unwrap().extension.as_ref().unwrap();
    assert_eq!(io.auxiliary_commands, ["nothing"]);
    let media = caps.media.as_ref().unwrap();
    assert_eq!(media.streaming_capabilities.rtp_rtsp_tcp, Some(true));
    assert_eq!(
        media
            .extension
            .as_ref()
            .map(|e| e.profile_capabilities.maximum_number_of_profiles),
        Some(10)
    );
    assert_eq!(
        caps.events.as_ref().map(|e| e.ws_pull_point_support),
        Some(true)
    );
    assert_eq!(caps.ptz, None);
    let extension = caps.extension.as_ref().unwrap();
    assert_eq!(
        extension.device_io.as_ref().map(|d| d.relay_outputs),
        Some(1)
    );
    assert_eq!(
        extension.recording.as_ref().map(|r| r.max_string_length),
        Some(64)
    );
    assert_eq!(
        extension.replay.as_ref().map(|r| r.x_addr.as_str()),
        Some("http://192.168.1.64/onvif/Replay")
    );
    // The vendor's element, kept under the extension's wildcard and decoded by the user.
    let [vendor] = &extension.any[..] else {
        panic!("{:?}", extension.any)
    };
    let hik: HikCapabilities = vendor.decode().unwrap();
    assert_eq!(
        (hik.x_addr.as_str(), hik.privacy_mask_support, hik.language),
        ("http://192.168.1.64/onvif/hik_ext", true, 2)
    );
    // A wrong password: the camera's fault, its ONVIF subcode what the user tells apart.
    let wrong = soapgen_runtime::Client::builder(server.url())
        .wss(WssConfig::new().username_token(UsernameToken::digest("admin", "wrong")))
        .build()
        .unwrap();
    let e = onvif_device::DeviceClient::from_client(wrong)
        .get_device_information()
        .await
        .unwrap_err();
    let fault = e.fault().unwrap_or_else(|| panic!("{e}"));
    assert!(fault.is_sender(), "{e}");
    assert_eq!(
        fault
            .subcodes
            .iter()
            .map(|s| (s.namespace.as_deref(), s.local_name.as_str()))
            .collect::<Vec<_>>(),
        [(Some("http://www.onvif.org/ver10/error"), "NotAuthorized")]
    );
    // What went on the wire: SOAP 1.2 with the action in the Content-Type, a UsernameToken
    // digest in every request.
    let sent = server.requests();
    assert_eq!(sent.len(), 3);
    for (request, action) in sent.iter().zip([
        "GetDeviceInformation",
        "GetCapabilities",
        "GetDeviceInformation",
    ]) {
        let lower = request.to_ascii_lowercase();
        assert!(
            lower.contains(&format!(
                "content-type: application/soap+xml; charset=utf-8; action=\"http://www.onvif.org/ver10/device/wsdl/{}\"",
                action.to_ascii_lowercase()
            )),
            "{request}"
        );
        for part in [
            "http://www.w3.org/2003/05/soap-envelope",
            "<wsse:Username>admin</wsse:Username>",
            "#PasswordDigest\">",
            "<wsse:Nonce EncodingType=",
            "<wsu:Created>",
        ] {
            assert!(request.contains(part), "{part} not in {request}");
        }
        assert!(!request.contains("Hik12345"), "{request}");
    }
    assert!(
        sent[1].contains(
            "<tns:GetCapabilities><tns:Category>All</tns:Category></tns:GetCapabilities>"
        ),
        "{}",
        sent[1]
    );
}
