//! e-conomic: `Connect`, then the debtors in one session.

use soapgen_tests::canned::{serve, Behaviour};

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
