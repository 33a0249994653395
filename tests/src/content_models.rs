//! Random content models (XML Schema Part 1 §3.8 model groups, §3.9 particles, §3.10
//! wildcards), as a WSDL whose every operation returns one of them: the corpus check generates
//! its client, and its round trips write arbitrary valid instances of each type and read them
//! back equal, so that every shape the generator draws is read as XML Schema assigns particles.
//!
//! What is drawn, per complexType: a sequence, a choice or an `all` at the top, holding elements
//! of the built-in types (`string`, `int`, `boolean`, `decimal`, `dateTime`, `base64Binary`) or of
//! an earlier type, nested sequences and choices, a named model group (`xs:group ref`), and a
//! wildcard of other namespaces; occurrence ranges 0..1, 1..1, 0..n, 1..n, 2..5; nillable
//! elements (an element of a complexType is required at most once); attributes, optional and
//! required; simpleContent with attributes; and complexContent
//! extensions of an earlier type. Every element name is unique in the schema and a type has at
//! most one wildcard, so every model satisfies Unique Particle Attribution (§3.8.6): the schema is
//! valid, and so is every instance the round trips write.

/// The target namespace of the drawn schema.
pub const NS: &str = "urn:soapgen:content-models";

/// A small deterministic generator (xorshift64*): the same WSDL for the same seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// What one type's drawing needs: the generator, the last name drawn (names are unique across
/// the schema), and whether the type's wildcard was drawn.
struct Draw<'a> {
    rng: &'a mut Rng,
    names: usize,
    wildcard: bool,
    /// The earlier complexTypes an element may have as its type.
    earlier: usize,
}

impl Draw<'_> {
    fn name(&mut self) -> String {
        self.names += 1;
        format!("e{}", self.names)
    }

    /// `minOccurs`/`maxOccurs` attributes.
    fn occurs(&mut self, repeat: bool) -> &'static str {
        match self.rng.below(if repeat { 5 } else { 2 }) {
            0 => "",
            1 => r#" minOccurs="0""#,
            2 => r#" minOccurs="0" maxOccurs="unbounded""#,
            3 => r#" maxOccurs="unbounded""#,
            _ => r#" minOccurs="2" maxOccurs="5""#,
        }
    }

    fn element(&mut self, repeat: bool) -> String {
        let name = self.name();
        let ty = match self.rng.below(8) {
            0 => "xs:int".to_owned(),
            1 => "xs:boolean".to_owned(),
            2 => "xs:decimal".to_owned(),
            3 => "xs:dateTime".to_owned(),
            4 => "xs:base64Binary".to_owned(),
            5 | 6 if self.earlier > 0 => format!("t:T{}", self.rng.below(self.earlier as u64)),
            _ => "xs:string".to_owned(),
        };
        let nillable = if self.rng.chance(15) {
            r#" nillable="true""#
        } else {
            ""
        };
        // An element of a complexType occurs at most once when required: required repeats
        // multiplied down a chain of types would make the least instance exponentially large.
        let occurs = match self.occurs(repeat) {
            o if ty.starts_with("t:") && o.contains(r#"minOccurs="2""#) => r#" minOccurs="0""#,
            o if ty.starts_with("t:") && o == r#" maxOccurs="unbounded""# => {
                r#" minOccurs="0" maxOccurs="unbounded""#
            }
            o => o,
        };
        format!(r#"<xs:element name="{name}" type="{ty}"{occurs}{nillable}/>"#)
    }

    /// The particles of a sequence or choice, `depth` levels down.
    fn particles(&mut self, depth: u32) -> String {
        let n = 1 + self.rng.below(4);
        let mut out = String::new();
        for _ in 0..n {
            let pick = self.rng.below(10);
            if pick < 6 || depth >= 2 {
                out.push_str(&self.element(true));
            } else if pick < 8 {
                let inner = self.particles(depth + 1);
                let occurs = self.occurs(true);
                out.push_str(&format!("<xs:sequence{occurs}>{inner}</xs:sequence>"));
            } else {
                let inner = self.particles(depth + 1);
                let occurs = self.occurs(true);
                out.push_str(&format!("<xs:choice{occurs}>{inner}</xs:choice>"));
            }
        }
        out
    }

    /// A top-level model group, with the type's wildcard at its end now and then.
    fn model(&mut self) -> String {
        match self.rng.below(6) {
            0 => {
                // `all`: elements of maxOccurs 1 only (§3.8.6, all group limited).
                let n = 1 + self.rng.below(4);
                let elements: String = (0..n).map(|_| self.element(false)).collect();
                format!("<xs:all>{elements}</xs:all>")
            }
            1 => {
                let inner = self.particles(1);
                format!("<xs:choice>{inner}</xs:choice>")
            }
            _ => {
                let mut inner = self.particles(0);
                if !self.wildcard && self.rng.chance(30) {
                    self.wildcard = true;
                    let occurs = self.occurs(true);
                    inner.push_str(&format!(
                        r###"<xs:any namespace="##other" processContents="lax"{occurs}/>"###
                    ));
                }
                format!("<xs:sequence>{inner}</xs:sequence>")
            }
        }
    }

    fn attributes(&mut self) -> String {
        let mut out = String::new();
        for _ in 0..self.rng.below(3) {
            let name = format!("a{}", self.name());
            let ty = ["xs:string", "xs:int", "xs:boolean"][self.rng.below(3) as usize];
            let required = if self.rng.chance(40) {
                r#" use="required""#
            } else {
                ""
            };
            out.push_str(&format!(
                r#"<xs:attribute name="{name}" type="{ty}"{required}/>"#
            ));
        }
        out
    }
}

/// A WSDL of `count` drawn complexTypes `T0`…, each the result of an operation `GetT{i}`
/// (document/literal wrapped, SOAP 1.1), drawn from `seed`.
pub fn wsdl(seed: u64, count: usize) -> String {
    let mut rng = Rng(seed.max(1));
    let mut types = String::new();
    let mut groups = String::new();
    // The types whose content a complexContent extension may add to: element-only, and no
    // `all` (XML Schema Part 1 §3.4.6, §3.8.6).
    let mut extensible: Vec<usize> = Vec::new();
    for i in 0..count {
        // Names unique across the schema (`e{100·i + n}`): an extension's elements never take a
        // name of its base's, which would break Unique Particle Attribution (§3.8.6).
        let mut d = Draw {
            rng: &mut rng,
            names: 100 * i,
            wildcard: false,
            earlier: i,
        };
        let body = match d.rng.below(10) {
            // simpleContent with attributes.
            0 => {
                let base = ["xs:string", "xs:int", "xs:decimal"][d.rng.below(3) as usize];
                let attrs = d.attributes();
                format!(
                    r#"<xs:simpleContent><xs:extension base="{base}">{attrs}</xs:extension></xs:simpleContent>"#
                )
            }
            // complexContent extension of an earlier type (its particles first, §3.4.2).
            1 if !extensible.is_empty() => {
                let base = extensible[d.rng.below(extensible.len() as u64) as usize];
                extensible.push(i);
                let inner = d.particles(1);
                let attrs = d.attributes();
                format!(
                    r#"<xs:complexContent><xs:extension base="t:T{base}"><xs:sequence>{inner}</xs:sequence>{attrs}</xs:extension></xs:complexContent>"#
                )
            }
            // A named model group, referred to from a sequence.
            2 => {
                let inner = d.particles(1);
                groups.push_str(&format!(
                    r#"<xs:group name="G{i}"><xs:sequence>{inner}</xs:sequence></xs:group>"#
                ));
                let before = d.element(true);
                let occurs = d.occurs(false);
                extensible.push(i);
                format!(r#"<xs:sequence>{before}<xs:group ref="t:G{i}"{occurs}/></xs:sequence>"#)
            }
            _ => {
                let model = d.model();
                if !model.starts_with("<xs:all>") {
                    extensible.push(i);
                }
                let attrs = d.attributes();
                format!("{model}{attrs}")
            }
        };
        types.push_str(&format!(
            "<xs:complexType name=\"T{i}\">{body}</xs:complexType>\n<xs:element name=\"GetT{i}\"><xs:complexType><xs:sequence/></xs:complexType></xs:element>\n<xs:element name=\"GetT{i}Response\"><xs:complexType><xs:sequence><xs:element name=\"result\" type=\"t:T{i}\"/></xs:sequence></xs:complexType></xs:element>\n"
        ));
    }
    let mut messages = String::new();
    let mut port_ops = String::new();
    let mut bound = String::new();
    for i in 0..count {
        messages.push_str(&format!(
            r#"<message name="In{i}"><part name="p" element="t:GetT{i}"/></message><message name="Out{i}"><part name="p" element="t:GetT{i}Response"/></message>"#
        ));
        port_ops.push_str(&format!(
            r#"<operation name="GetT{i}"><input message="t:In{i}"/><output message="t:Out{i}"/></operation>"#
        ));
        bound.push_str(&format!(
            r#"<operation name="GetT{i}"><soap:operation soapAction="urn:get{i}"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>"#
        ));
    }
    format!(
        r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:t="{NS}" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="{NS}">
 <types><xs:schema targetNamespace="{NS}" elementFormDefault="qualified">
{groups}
{types}
 </xs:schema></types>
 {messages}
 <portType name="Models">{port_ops}</portType>
 <binding name="ModelsSoap" type="t:Models"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>{bound}</binding>
 <service name="ModelsService"><port name="ModelsPort" binding="t:ModelsSoap"><soap:address location="http://localhost/models"/></port></service>
</definitions>"#
    )
}
