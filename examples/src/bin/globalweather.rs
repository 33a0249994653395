//! The main job: a client generated at build time (build.rs) from the real-world GlobalWeather WSDL
//! (`examples/wsdl/globalweather.wsdl`), calling a live service and printing typed results, how long
//! constructing the client took, and the first call's latency.
//!
//! ```text
//! cargo run -p soapgen-examples --bin globalweather -- --endpoint http://127.0.0.1:8080/globalweather.asmx
//! ```
//!
//! `scripts/demo.sh` starts a gSOAP server generated from the same WSDL on loopback and runs this.

use std::time::Instant;

use soapgen_runtime::{Client, SoapVersion};

mod globalweather {
    soapgen_runtime::include_client!("globalweather");
}

use globalweather::GlobalWeatherClient;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut endpoint = GlobalWeatherClient::DEFAULT_ENDPOINT
        .unwrap_or_default()
        .to_owned();
    let mut city = "Sydney".to_owned();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--endpoint" => endpoint = args.next().ok_or("--endpoint needs a URL")?,
            "--city" => city = args.next().ok_or("--city needs a name")?,
            "-h" | "--help" => {
                println!("usage: globalweather [--endpoint URL] [--city NAME]");
                return Ok(());
            }
            other => return Err(format!("unknown argument {other:?} (try --help)").into()),
        }
    }

    // The HTTP transport is built once (TLS roots, connection pool); typed clients over it are free.
    let t = Instant::now();
    let http = Client::new(endpoint.clone())?;
    let transport_time = t.elapsed();
    const N: u32 = 1_000_000;
    let t = Instant::now();
    for _ in 0..N {
        std::hint::black_box(GlobalWeatherClient::from_client(std::hint::black_box(
            http.clone(),
        )));
    }
    let per_client = t.elapsed() / N;
    // One client for both bindings of the WSDL: SOAP 1.1 (the first port's) by default, 1.2 on
    // request.
    let soap11 = GlobalWeatherClient::from_client(http.clone());
    let soap12 = GlobalWeatherClient::from_client(http).with_soap_version(SoapVersion::Soap12);

    println!("endpoint: {endpoint}");
    println!("client construction: {per_client:?} per typed client (no WSDL work at run time); HTTP transport built once in {transport_time:?}");

    let t = Instant::now();
    let weather = soap11.get_weather(Some(city.clone())).await?;
    let first = t.elapsed();
    println!("first call (GetWeather, SOAP 1.1, new connection): {first:?}");
    let t = Instant::now();
    let again = soap11.get_weather(Some(city.clone())).await?;
    println!("second call (pooled connection): {:?}", t.elapsed());
    assert_eq!(again, weather);

    println!("\nGetWeather({city:?}) → status {}:", weather.status_code);
    println!("{}", weather.get_weather_result);

    let cities = soap12
        .get_cities_by_country(Some("Australia".into()))
        .await?;
    println!("\nGetCitiesByCountry(\"Australia\") over SOAP 1.2:");
    println!("{}", cities.as_deref().unwrap_or("(no result)"));
    Ok(())
}
