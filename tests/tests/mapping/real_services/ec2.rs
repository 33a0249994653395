//! Amazon EC2 `DescribeInstances`.

use soapgen_tests::canned::{http, serve, Behaviour};

mod client {
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
    use client::types::*;
    let server = serve(Behaviour::Raw(http(
        200,
        "text/xml;charset=UTF-8",
        describe_instances_response().as_bytes(),
    )));
    let ec2 = client::AmazonEc2Client::new(server.url()).unwrap();
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
