//! Operation selection (`Builder::operations`, `Builder::exclude_operations`; `soapgen generate
//! --operation`): only the selected operations and the types they reach are generated, the kept
//! set is closed (every type a kept type or operation names is kept), types derived from a reached
//! type and substitution group members of a reached head are kept, names do not change, and an
//! unknown operation name is an error with a suggestion.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use soapgen_build::model::ir::{Base, Module, TypeDecl, TypeExpr};
use soapgen_build::Builder;

fn path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// e-conomic (tests/corpus, 1,511 operations in a SOAP 1.1 and a SOAP 1.2 binding).
fn economic() -> PathBuf {
    path("../tests/corpus/wasabi/spec/fixtures/economic.wsdl")
}

const FIVE: [&str; 5] = [
    "Connect",
    "Debtor_GetAll",
    "Debtor_GetData",
    "Debtor_FindByName",
    "Invoice_GetData",
];

fn named(b: &Base) -> Option<&str> {
    match b {
        Base::Named(n) => Some(n),
        Base::List(i) | Base::SoapArray(i) => named(i),
        _ => None,
    }
}

/// The type names a declaration refers to.
fn refs(t: &TypeDecl) -> Vec<&str> {
    let exprs: Vec<&Base> = match t {
        TypeDecl::Struct(s) => s.fields.iter().map(|f| &f.ty.base).collect(),
        TypeDecl::Choice(c) => c.variants.iter().map(|v| &v.ty.base).collect(),
        TypeDecl::Derivations(d) => d.variants.iter().map(|v| &v.ty.base).collect(),
        TypeDecl::Alias(a) => vec![&a.target],
        TypeDecl::Faults(f) => f.variants.iter().map(|v| &v.1).collect(),
        TypeDecl::Enum(_) => vec![],
    };
    exprs.into_iter().filter_map(named).collect()
}

/// The type names the operations of `m` refer to directly.
fn op_refs(m: &Module) -> Vec<String> {
    let mut out = Vec::new();
    for op in m.clients.iter().flat_map(|c| &c.operations) {
        let exprs: Vec<&TypeExpr> = op
            .params
            .iter()
            .chain(&op.headers)
            .map(|p| &p.ty)
            .chain(op.ret.as_ref())
            .collect();
        out.extend(
            exprs
                .iter()
                .filter_map(|t| named(&t.base))
                .map(str::to_owned),
        );
        out.extend(op.faults.clone());
    }
    out
}

/// The names of the types of `all` reachable from `roots`.
fn reach(all: &Module, roots: Vec<String>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = roots;
    while let Some(n) = stack.pop() {
        if !seen.insert(n.clone()) {
            continue;
        }
        if let Some(t) = all.types.iter().find(|t| t.name() == n) {
            stack.extend(refs(t).into_iter().map(str::to_owned));
        }
    }
    seen
}

fn names(m: &Module) -> BTreeSet<String> {
    m.types.iter().map(|t| t.name().to_owned()).collect()
}

/// Every `types::X` in the code names an item of its `types` module.
fn assert_types_paths_resolve(code: &str) {
    let file = syn::parse_file(code).unwrap_or_else(|e| panic!("the code does not parse: {e}"));
    let mut defined = BTreeSet::new();
    for item in &file.items {
        if let syn::Item::Mod(m) = item {
            if m.ident == "types" {
                for i in m.content.iter().flat_map(|(_, items)| items) {
                    match i {
                        syn::Item::Struct(s) => defined.insert(s.ident.to_string()),
                        syn::Item::Enum(e) => defined.insert(e.ident.to_string()),
                        syn::Item::Type(t) => defined.insert(t.ident.to_string()),
                        // `fault_details! { pub enum X … }`
                        syn::Item::Macro(m) => {
                            let t = m.mac.tokens.to_string();
                            let name = t
                                .split("pub enum ")
                                .nth(1)
                                .and_then(|r| r.split(' ').next());
                            defined.insert(name.unwrap_or_default().to_owned())
                        }
                        _ => false,
                    };
                }
            }
        }
    }
    let tokens: Vec<String> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .map(str::to_owned)
        .collect();
    let mut used = 0;
    for t in &tokens {
        if let Some(rest) = t.strip_prefix("types::") {
            used += 1;
            assert!(defined.contains(rest), "types::{rest} is not defined");
        }
    }
    assert!(used > 0);
}

#[test]
fn five_operations_of_economic_keep_a_closed_set_of_types() {
    let all = Builder::new().generate_one(&economic()).unwrap();
    let g = Builder::new()
        .operations(FIVE)
        .generate_one(&economic())
        .unwrap();
    let m = &g.module;
    // Each selected operation, in the one client of both bindings (SOAP 1.1 and 1.2), nothing else.
    assert_eq!(m.clients.len(), 1);
    assert_eq!(m.clients[0].versions.len(), 2);
    for c in &m.clients {
        let ops: BTreeSet<&str> = c.operations.iter().map(|o| o.wsdl_name.as_str()).collect();
        assert_eq!(ops, FIVE.into_iter().collect(), "{}", c.name);
    }
    // Closed: whatever a kept type or operation names is kept.
    let kept = names(m);
    for t in &m.types {
        for r in refs(t) {
            assert!(kept.contains(r), "{} names {r}, not kept", t.name());
        }
    }
    for r in op_refs(m) {
        assert!(kept.contains(&r), "an operation names {r}, not kept");
    }
    // Exactly what the operations reach in the whole model, under the same names.
    assert_eq!(kept, reach(&all.module, op_refs(m)));
    assert!(
        kept.len() * 10 < all.module.types.len(),
        "{} of {}",
        kept.len(),
        all.module.types.len()
    );
    let methods = |m: &Module| -> BTreeSet<(String, String)> {
        m.clients
            .iter()
            .flat_map(|c| {
                c.operations
                    .iter()
                    .map(|o| (o.wsdl_name.clone(), o.method.clone()))
            })
            .collect()
    };
    assert!(methods(m).is_subset(&methods(&all.module)));
    assert_types_paths_resolve(&g.code);
    assert!(
        g.code
            .contains("// - 3012 of the 3022 operations of the SOAP bindings (not selected)"),
        "{}",
        &g.code[..600]
    );
}

#[test]
fn excluding_operations_leaves_out_what_only_they_reach() {
    let wcf = path("tests/wsdl/wcf.wsdl");
    let g = Builder::new()
        .exclude_operations(["GetCustomer", "SaveCustomer"])
        .generate_one(&wcf)
        .unwrap();
    let ops: Vec<&str> = g.module.clients[0]
        .operations
        .iter()
        .map(|o| o.wsdl_name.as_str())
        .collect();
    assert_eq!(ops, ["FindOrders"]);
    assert_eq!(
        names(&g.module),
        ["ArrayOfOrder", "Order", "OrderStatus"]
            .map(String::from)
            .into()
    );
    // `operations` and `exclude_operations` together: the exclusion wins.
    let g = Builder::new()
        .operations(["FindOrders", "GetCustomer"])
        .exclude_operations(["FindOrders"])
        .generate_one(&wcf)
        .unwrap();
    assert_eq!(g.module.clients[0].operations.len(), 1);
    assert_eq!(g.module.clients[0].operations[0].wsdl_name, "GetCustomer");
}

#[test]
fn types_derived_from_a_reached_type_are_kept() {
    // GetCustomer returns a Customer: PremiumCustomer, derived from it, may come back in its place
    // (xsi:type), so it is kept with the enum of both.
    let g = Builder::new()
        .operations(["GetCustomer"])
        .generate_one(&path("tests/wsdl/wcf.wsdl"))
        .unwrap();
    let kept = names(&g.module);
    for t in [
        "CustomerKind",
        "Customer",
        "PremiumCustomer",
        "ArrayOfOrder",
        "Order",
        "Guid",
    ] {
        assert!(kept.contains(t), "{t} not kept: {kept:?}");
    }
    assert!(g.code.contains("PremiumCustomer(PremiumCustomer)"));
    assert_types_paths_resolve(&g.code);
}

#[test]
fn substitution_group_members_of_a_reached_head_are_kept() {
    // Pin's Board holds Label and Shape heads: their members (one in another namespace, one
    // through an abstract member) are kept; Drawing, only Draw's, is not.
    let g = Builder::new()
        .operations(["Pin"])
        .generate_one(&path("../tests/wsdl/substitution.wsdl"))
        .unwrap();
    assert_eq!(
        names(&g.module),
        [
            "Board",
            "BoardLabel",
            "BoardShape",
            "CircleType",
            "SquareType"
        ]
        .map(String::from)
        .into()
    );
    let shape = g
        .module
        .types
        .iter()
        .find_map(|t| match t {
            TypeDecl::Choice(c) if c.name == "BoardShape" => Some(c),
            _ => None,
        })
        .unwrap();
    let members: Vec<&str> = shape.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(members, ["Circle", "Square", "Cube", "Sphere"]);
}

#[test]
fn an_operation_is_named_by_its_wsdl_name_or_its_method_name() {
    let wcf = path("tests/wsdl/wcf.wsdl");
    let by_method = Builder::new()
        .operations(["get_customer"])
        .exclude_operations(["save-customer"])
        .generate_one(&wcf)
        .unwrap();
    let by_wsdl = Builder::new()
        .operations(["GetCustomer"])
        .generate_one(&wcf)
        .unwrap();
    assert_eq!(by_method.code, by_wsdl.code);
    let ops: Vec<&str> = by_method.module.clients[0]
        .operations
        .iter()
        .map(|o| o.wsdl_name.as_str())
        .collect();
    assert_eq!(ops, ["GetCustomer"]);
}

#[test]
fn an_unknown_operation_is_an_error_with_a_suggestion() {
    let wcf = path("tests/wsdl/wcf.wsdl");
    let e = Builder::new()
        .operations(["get_customr", "FindOrder"])
        .exclude_operations(["Nothing"])
        .generate_one(&wcf)
        .unwrap_err();
    assert_eq!(e.0.len(), 3, "{e}");
    let text = e.to_string();
    for part in [
        "undefined operation \"get_customr\" to generate in wcf.wsdl",
        "did you mean \"GetCustomer\"?",
        "undefined operation \"FindOrder\" to generate",
        "did you mean \"FindOrders\"?",
        "undefined operation \"Nothing\" to leave out",
        "its operations (WSDL names): FindOrders, GetCustomer, SaveCustomer",
    ] {
        assert!(text.contains(part), "missing {part:?} in:\n{text}");
    }
    let e = Builder::new()
        .operations(["Debtor_GetDat"])
        .generate_one(&economic())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("did you mean \"Debtor_GetData\"? the closest of its 1511 operations"),
        "{e}"
    );
}

#[test]
fn a_client_keeps_its_name_whichever_ports_or_operations_are_generated() {
    // One service of two portTypes: each client is named after its portType, also when only
    // one of the ports, or only operations of one portType, are generated.
    let wsdl = r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:two" targetNamespace="urn:two">
  <types><xs:schema targetNamespace="urn:two" elementFormDefault="qualified">
    <xs:element name="A"><xs:complexType/></xs:element>
    <xs:element name="B"><xs:complexType/></xs:element>
  </xs:schema></types>
  <message name="a"><part name="p" element="tns:A"/></message>
  <message name="b"><part name="p" element="tns:B"/></message>
  <portType name="Alpha"><operation name="Ping"><input message="tns:a"/><output message="tns:a"/></operation></portType>
  <portType name="Beta"><operation name="Pong"><input message="tns:b"/><output message="tns:b"/></operation></portType>
  <binding name="AlphaBinding" type="tns:Alpha"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Ping"><soap:operation soapAction="ping"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
  <binding name="BetaBinding" type="tns:Beta"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Pong"><soap:operation soapAction="pong"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
  <service name="Both">
    <port name="AlphaPort" binding="tns:AlphaBinding"><soap:address location="http://localhost/a"/></port>
    <port name="BetaPort" binding="tns:BetaBinding"><soap:address location="http://localhost/b"/></port>
  </service>
</definitions>"#;
    let dir = std::env::temp_dir().join(format!("soapgen-port-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.wsdl");
    std::fs::write(&file, wsdl).unwrap();
    let names = |b: Builder| -> Vec<String> {
        let g = b.generate_one(&file).unwrap_or_else(|e| panic!("{e}"));
        g.module.clients.iter().map(|c| c.name.clone()).collect()
    };
    assert_eq!(names(Builder::new()), ["Alpha", "Beta"]);
    assert_eq!(names(Builder::new().ports(["AlphaPort"])), ["Alpha"]);
    assert_eq!(names(Builder::new().ports(["BetaPort"])), ["Beta"]);
    // The same with an operation selection that leaves one portType.
    assert_eq!(names(Builder::new().operations(["Ping"])), ["Alpha"]);
    assert_eq!(names(Builder::new().operations(["pong"])), ["Beta"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
