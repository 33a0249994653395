//! Recorded exchanges replayed (`soapgen_runtime::testing`): a generated client's calls to the
//! gSOAP GlobalWeather server recorded once, then replayed with no server at all, the typed
//! answers the same; a call the recording does not have is an error naming the closest one.

use std::sync::Arc;

use soapgen_runtime::testing::{Recorder, Replayer};
use soapgen_runtime::transport::{HttpRequest, ReqwestTransport};
use soapgen_runtime::Client;
use soapgen_tests::peers;

use super::generated_clients::globalweather::GlobalWeatherClient;

/// The city a GetWeather request asks for (the key that tells its calls apart).
fn city(request: &HttpRequest) -> String {
    let body = String::from_utf8_lossy(&request.body);
    body.split_once("CityName>")
        .and_then(|(_, rest)| rest.split_once('<'))
        .map(|(city, _)| city.to_owned())
        .unwrap_or_default()
}

#[tokio::test]
async fn exchanges_recorded_against_gsoap_replay_without_it() {
    let dir = std::env::temp_dir().join(format!("soapgen-record-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let peer = peers::globalweather();
    let recorder = Recorder::new(Arc::new(ReqwestTransport::new().unwrap()), &dir).unwrap();
    let live = Client::builder(peer.url("/globalweather.asmx"))
        .transport(Arc::new(recorder))
        .build()
        .unwrap();
    let live = GlobalWeatherClient::from_client(live);
    let sydney = live.get_weather(Some("Sydney".into())).await.unwrap();
    let atlantis = live.get_weather(Some("Atlantis".into())).await.unwrap();
    let cities = live
        .get_cities_by_country(Some("Australia".into()))
        .await
        .unwrap();
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        9,
        "3 files per exchange"
    );

    // Nothing listens at that address: the answers come from the recording.
    let replayer = Replayer::load(&dir).unwrap().key(city);
    let replay = Client::builder("http://127.0.0.1:9/globalweather.asmx")
        .transport(Arc::new(replayer))
        .build()
        .unwrap();
    let replay = GlobalWeatherClient::from_client(replay);
    // In another order than recorded: each request finds its own by operation and city.
    assert_eq!(
        replay
            .get_cities_by_country(Some("Australia".into()))
            .await
            .unwrap(),
        cities
    );
    assert_eq!(
        replay.get_weather(Some("Atlantis".into())).await.unwrap(),
        atlantis
    );
    assert_eq!(
        replay.get_weather(Some("Sydney".into())).await.unwrap(),
        sydney
    );
    // Again: the last one of a kind answers again.
    assert_eq!(
        replay.get_weather(Some("Sydney".into())).await.unwrap(),
        sydney
    );
    let e = replay.get_weather(Some("Oslo".into())).await.unwrap_err();
    let message = e.to_string();
    assert!(
        message.contains("with key \"Oslo\"") && message.contains("of that operation with key"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
