//! A webhook receiver on loopback for tests: it answers every request with a fixed answer and
//! hands each request it read (head and body) to the test.

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// A receiver on loopback (speaking TLS with `tls`) that answers every request with
/// `answer` after reading its headers and body; it sends each request on the channel.
pub async fn receiver_with(
    answer: &'static str,
    tls: Option<tokio_rustls::TlsAcceptor>,
) -> (u16, tokio::sync::mpsc::UnboundedReceiver<String>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let (tx, tls) = (tx.clone(), tls.clone());
            tokio::spawn(async move {
                match tls {
                    Some(tls) => {
                        if let Ok(stream) = tls.accept(socket).await {
                            answer_one(stream, answer, tx).await;
                        }
                    }
                    None => answer_one(socket, answer, tx).await,
                }
            });
        }
    });
    (port, rx)
}

async fn answer_one<S: AsyncRead + AsyncWrite + Unpin>(
    mut socket: S,
    answer: &str,
    tx: tokio::sync::mpsc::UnboundedSender<String>,
) {
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = socket.read(&mut buf).await.unwrap_or(0);
        seen.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&seen);
        if n == 0 || text.contains("\r\n\r\n{") && text.ends_with('}') {
            break;
        }
    }
    tx.send(String::from_utf8_lossy(&seen).into_owned()).ok();
    socket.write_all(answer.as_bytes()).await.ok();
    socket.flush().await.ok();
}

pub async fn receiver(answer: &'static str) -> (u16, tokio::sync::mpsc::UnboundedReceiver<String>) {
    receiver_with(answer, None).await
}
