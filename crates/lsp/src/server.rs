//! The message loop: the `initialize` handshake, then requests and notifications dispatched to
//! the [`Workspace`](crate::workspace::Workspace), the findings published after every change,
//! `shutdown` and `exit`. Requests before `initialize` are refused (`ServerNotInitialized`),
//! after `shutdown` too (`InvalidRequest`); unknown methods get `MethodNotFound`, bad parameters
//! `InvalidParams`; unknown notifications and responses are ignored.

use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{notification as n, request as r};
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, HoverProviderCapability, InitializeParams, InitializeResult,
    OneOf, ServerCapabilities, ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Url,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::workspace::Workspace;
use crate::{actions, features};

/// What the server can do.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            save: Some(TextDocumentSyncSaveOptions::Supported(true)),
            ..TextDocumentSyncOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![" ".into(), ":".into(), "\"".into()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        rename_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// The server's state between messages.
#[derive(Default)]
struct Server {
    initialized: bool,
    shut_down: bool,
    /// The catalog folder the client named (None: the folder of the first document opened).
    root: Option<PathBuf>,
    workspace: Option<Workspace>,
}

/// Serve `connection` until `exit` (or the end of its messages); whether `shutdown` came first.
pub fn serve(connection: &Connection) -> bool {
    let mut server = Server::default();
    for message in &connection.receiver {
        match message {
            Message::Request(req) => {
                let response = server.request(req, connection);
                let _ = connection.sender.send(Message::Response(response));
            }
            Message::Notification(note) if note.method == n::Exit::METHOD => return server.shut_down,
            Message::Notification(note) => server.notification(note, connection),
            Message::Response(_) => {}
        }
    }
    server.shut_down
}

fn error(id: RequestId, code: ErrorCode, message: impl Into<String>) -> Response {
    Response::new_err(id, code as i32, message.into())
}

fn params<P: DeserializeOwned>(req: &Request) -> Result<P, Response> {
    serde_json::from_value(req.params.clone())
        .map_err(|e| error(req.id.clone(), ErrorCode::InvalidParams, format!("{}: {e}", req.method)))
}

/// The catalog path of a document, when it is in the catalog.
fn path(ws: &Workspace, uri: &Url) -> Option<String> {
    ws.path_of(uri)
}

impl Server {
    fn request(&mut self, req: Request, connection: &Connection) -> Response {
        if req.method == r::Initialize::METHOD {
            if self.initialized {
                return error(req.id, ErrorCode::InvalidRequest, "initialize was already received");
            }
            return match params::<InitializeParams>(&req) {
                Ok(p) => self.initialize(req.id, p),
                Err(e) => e,
            };
        }
        if !self.initialized {
            return error(req.id, ErrorCode::ServerNotInitialized, "the server is not initialized");
        }
        if self.shut_down {
            return error(req.id, ErrorCode::InvalidRequest, "the server was shut down");
        }
        if req.method == r::Shutdown::METHOD {
            self.shut_down = true;
            return Response::new_ok(req.id, Value::Null);
        }
        let id = req.id.clone();
        let result = match self.workspace.as_mut() {
            Some(ws) => guarded(|| dispatch(ws, &req))
                .unwrap_or_else(|e| Err(error(req.id.clone(), ErrorCode::InternalError, e))),
            None => empty_answer(&req),
        };
        self.publish(connection);
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(response) => response,
        }
    }

    fn initialize(&mut self, id: RequestId, p: InitializeParams) -> Response {
        let folder = p.workspace_folders.as_ref().and_then(|f| f.first()).map(|f| f.uri.clone());
        #[allow(deprecated)]
        let uri = folder.or(p.root_uri);
        self.root = uri.and_then(|u| u.to_file_path().ok());
        #[allow(deprecated)]
        if self.root.is_none() {
            self.root = p.root_path.map(PathBuf::from);
        }
        self.initialized = true;
        let result = InitializeResult {
            capabilities: capabilities(),
            server_info: Some(ServerInfo {
                name: "olm-catalog".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        };
        Response::new_ok(id, serde_json::to_value(result).unwrap_or(Value::Null))
    }

    fn notification(&mut self, note: Notification, connection: &Connection) {
        if !self.initialized {
            return;
        }
        if note.method == n::Initialized::METHOD {
            if let Some(root) = self.root.clone() {
                self.workspace = Some(Workspace::open(root));
                self.publish(connection);
            }
            return;
        }
        if self.workspace.is_none() && note.method == n::DidOpenTextDocument::METHOD {
            let p: Option<lsp_types::DidOpenTextDocumentParams> = serde_json::from_value(note.params.clone()).ok();
            let dir =
                p.and_then(|p| p.text_document.uri.to_file_path().ok()).and_then(|f| f.parent().map(PathBuf::from));
            self.workspace = dir.map(Workspace::open);
        }
        let Some(ws) = self.workspace.as_mut() else { return };
        if let Err(e) = guarded(|| documents(ws, &note)) {
            eprintln!("olm-catalog lsp: {}: {e}", note.method);
        }
        self.publish(connection);
    }

    /// Send the findings that changed.
    fn publish(&mut self, connection: &Connection) {
        let Some(ws) = self.workspace.as_mut() else { return };
        for params in ws.diagnostics() {
            let note = Notification::new(n::PublishDiagnostics::METHOD.to_string(), params);
            let _ = connection.sender.send(Message::Notification(note));
        }
    }
}

/// `f`'s value, or the message of a panic in it: a bug answers one request with an error (and
/// is reported on standard error) instead of ending the server.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let what = p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned());
        format!("internal error: {}", what.unwrap_or_else(|| "a panic".into()))
    })
}

/// Document notifications: open, change, close, save, files changed on disk.
fn documents(ws: &mut Workspace, note: &Notification) {
    fn read<P: DeserializeOwned>(note: &Notification) -> Option<P> {
        serde_json::from_value(note.params.clone()).ok()
    }
    match note.method.as_str() {
        n::DidOpenTextDocument::METHOD => {
            let Some(p) = read::<lsp_types::DidOpenTextDocumentParams>(note) else { return };
            if let Some(path) = path(ws, &p.text_document.uri) {
                ws.did_open(&path, p.text_document.text);
            }
        }
        n::DidChangeTextDocument::METHOD => {
            let Some(p) = read::<lsp_types::DidChangeTextDocumentParams>(note) else { return };
            if let Some(path) = path(ws, &p.text_document.uri) {
                ws.did_change(&path, p.content_changes);
            }
        }
        n::DidCloseTextDocument::METHOD => {
            let Some(p) = read::<lsp_types::DidCloseTextDocumentParams>(note) else { return };
            if let Some(path) = path(ws, &p.text_document.uri) {
                ws.did_close(&path);
            }
        }
        n::DidChangeWatchedFiles::METHOD => {
            let Some(p) = read::<lsp_types::DidChangeWatchedFilesParams>(note) else { return };
            for change in p.changes {
                if let Some(path) = path(ws, &change.uri) {
                    ws.reload(&path);
                }
            }
        }
        _ => {}
    }
}

/// The answer to a request when no catalog is open: empty, or `MethodNotFound`.
fn empty_answer(req: &Request) -> Result<Value, Response> {
    match req.method.as_str() {
        r::HoverRequest::METHOD | r::Rename::METHOD => Ok(Value::Null),
        r::GotoDefinition::METHOD
        | r::References::METHOD
        | r::Completion::METHOD
        | r::DocumentSymbolRequest::METHOD
        | r::WorkspaceSymbolRequest::METHOD
        | r::CodeActionRequest::METHOD => Ok(Value::Array(Vec::new())),
        _ => Err(error(req.id.clone(), ErrorCode::MethodNotFound, format!("unknown method {}", req.method))),
    }
}

fn json(v: impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// Answer a request on the open catalog (a document outside it gets an empty answer).
fn dispatch(ws: &mut Workspace, req: &Request) -> Result<Value, Response> {
    let on = |uri: &Url| path(ws, uri);
    Ok(match req.method.as_str() {
        r::HoverRequest::METHOD => {
            let p: lsp_types::HoverParams = params(req)?;
            let d = p.text_document_position_params;
            json(on(&d.text_document.uri).and_then(|f| features::hover(ws, &f, d.position)))
        }
        r::GotoDefinition::METHOD => {
            let p: lsp_types::GotoDefinitionParams = params(req)?;
            let d = p.text_document_position_params;
            json(on(&d.text_document.uri).map(|f| features::definition(ws, &f, d.position)).unwrap_or_default())
        }
        r::References::METHOD => {
            let p: lsp_types::ReferenceParams = params(req)?;
            let (d, decl) = (p.text_document_position, p.context.include_declaration);
            json(on(&d.text_document.uri).map(|f| features::references(ws, &f, d.position, decl)).unwrap_or_default())
        }
        r::Completion::METHOD => {
            let p: lsp_types::CompletionParams = params(req)?;
            let d = p.text_document_position;
            json(on(&d.text_document.uri).map(|f| features::completion(ws, &f, d.position)).unwrap_or_default())
        }
        r::DocumentSymbolRequest::METHOD => {
            let p: lsp_types::DocumentSymbolParams = params(req)?;
            json(on(&p.text_document.uri).map(|f| features::document_symbols(ws, &f)).unwrap_or_default())
        }
        r::WorkspaceSymbolRequest::METHOD => {
            let p: lsp_types::WorkspaceSymbolParams = params(req)?;
            json(features::workspace_symbols(ws, &p.query))
        }
        r::CodeActionRequest::METHOD => {
            let p: lsp_types::CodeActionParams = params(req)?;
            let Some(f) = on(&p.text_document.uri) else { return Ok(Value::Array(Vec::new())) };
            json(actions::code_actions(ws, &f, p.range, &p.context.diagnostics))
        }
        r::Rename::METHOD => {
            let p: lsp_types::RenameParams = params(req)?;
            let d = p.text_document_position;
            let Some(f) = on(&d.text_document.uri) else { return Ok(Value::Null) };
            let edit = actions::rename(ws, &f, d.position, &p.new_name)
                .map_err(|e| error(req.id.clone(), ErrorCode::RequestFailed, e))?;
            json(edit)
        }
        _ => return empty_answer(req),
    })
}

#[cfg(test)]
mod tests {
    use super::guarded;

    #[test]
    fn a_panic_becomes_an_error_message() {
        assert_eq!(guarded(|| 1), Ok(1));
        let e = guarded(|| -> u8 { panic!("bug {}", 7) }).unwrap_err();
        assert_eq!(e, "internal error: bug 7");
    }
}
