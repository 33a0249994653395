//! The CLI route: `examples/generated/globalweather-client` was written by `soapgen generate` and is
//! checked in, with its fake behind the crate's `fake` feature (`--fake`). Regenerating it (twice)
//! must give exactly the checked-in files: generation is deterministic and the checked-in crate
//! is current. A test turns the feature on and runs the client on its fake.

use std::path::Path;

use clap::Parser;
use soapgen_cli::{run, Cli};

#[test]
fn regenerating_the_checked_in_client_gives_no_diff() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let kept = root.join("examples/generated/globalweather-client");
    let out = root.join("target/regen-check/globalweather-client");
    let _ = std::fs::remove_dir_all(&out);
    for _ in 0..2 {
        let cli = Cli::parse_from([
            "soapgen".as_ref(),
            "generate".as_ref(),
            root.join("examples/wsdl/globalweather.wsdl").as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
            "--name".as_ref(),
            "globalweather-client".as_ref(),
            "--runtime".as_ref(),
            "path:../../../soapgen-runtime".as_ref(),
            "--fake".as_ref(),
        ]);
        run(cli).unwrap_or_else(|e| panic!("{e}"));
        for file in ["Cargo.toml", "src/lib.rs"] {
            let mut a = std::fs::read_to_string(kept.join(file)).unwrap();
            let mut b = std::fs::read_to_string(out.join(file)).unwrap();
            if file == "Cargo.toml" {
                // The command that regenerates a crate names the WSDL from the crate's directory,
                // which differs between the two; the rest must not.
                let command = "#   soapgen generate ../../wsdl/globalweather.wsdl -o . --name \
                               globalweather-client --runtime path:../../../soapgen-runtime --fake";
                let (a_cmd, b_cmd) = (a.lines().nth(1).unwrap(), b.lines().nth(1).unwrap());
                assert_eq!(a_cmd, command);
                assert!(
                    b_cmd.starts_with(
                        "#   soapgen generate ../../../examples/wsdl/globalweather.wsdl -o . "
                    ),
                    "{b_cmd}"
                );
                a = a.replacen(a_cmd, "", 1);
                b = b.replacen(b_cmd, "", 1);
            }
            assert!(
                a == b,
                "{file} of the checked-in client is not what `soapgen generate` writes now: regenerate it with\n  \
                 cargo run -p soapgen-cli -- generate examples/wsdl/globalweather.wsdl \
                 -o examples/generated/globalweather-client --name globalweather-client --runtime path:../../../soapgen-runtime --fake"
            );
        }
    }
}

/// The checked-in crate's fake, turned on by its `fake` feature (this crate's dev-dependency):
/// application code written against the service trait, run on the client over the fake.
#[tokio::test]
async fn the_checked_in_client_runs_on_its_fake_behind_its_feature() {
    use globalweather_client::{GlobalWeather, GlobalWeatherClient};
    struct Atlas;
    impl GlobalWeather for Atlas {
        async fn get_cities_by_country(
            &self,
            country_name: Option<String>,
        ) -> Result<Option<String>, soapgen_runtime::Error> {
            Ok(country_name
                .map(|c| format!("<NewDataSet><Table><Country>{c}</Country></Table></NewDataSet>")))
        }
    }
    // What an application would write: generic over the service.
    async fn cities(svc: &impl GlobalWeather, country: &str) -> String {
        match svc.get_cities_by_country(Some(country.into())).await {
            Ok(list) => list.unwrap_or_default(),
            Err(e) => format!("error: {e}"),
        }
    }
    let client = GlobalWeatherClient::fake(Atlas);
    assert_eq!(
        cities(&client, "Chile & <Perú>").await,
        "<NewDataSet><Table><Country>Chile & <Perú></Country></Table></NewDataSet>"
    );
    // GetWeather is not implemented by this fake: the default body's fault.
    let e = client.get_weather(None).await.unwrap_err();
    assert!(
        e.to_string().contains("does not implement `get_weather`"),
        "{e}"
    );
}
