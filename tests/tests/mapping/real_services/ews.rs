//! Exchange Web Services `FindItem`.

use soapgen_tests::canned::{http, serve, Behaviour};

mod client {
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
fn subjects(resp: &client::types::FindItemResponseType) -> Vec<String> {
    use client::types::*;
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
    use client::types::*;
    use client::ExchangeServicesClient as Ews;
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
