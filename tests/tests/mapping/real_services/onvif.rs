//! ONVIF device management with a UsernameToken digest.

use soapgen_tests::canned::{http, serve, Behaviour};

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
