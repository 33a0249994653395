use soapgen_runtime::ToXml;

type Names = Vec<String>;

#[derive(ToXml)]
struct UnknownValue {
    #[xml(occurs = "sometimes")]
    a: String,
}

#[derive(ToXml)]
#[xml(sequence)]
struct AliasInSequence {
    #[xml(occurs = "many")]
    a: Names,
}

#[derive(ToXml)]
struct RepeatedText {
    #[xml(text, occurs = "many")]
    t: Vec<String>,
}

#[derive(ToXml)]
enum AliasInChoice {
    #[xml(occurs = "many")]
    A(Names),
    B(String),
}

#[derive(ToXml)]
enum Value {
    #[xml(occurs = "one")]
    A,
    B,
}

fn main() {}
