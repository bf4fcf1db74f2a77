// The chat view's page: a strict CSP (scripts only with this page's nonce; styles and fonts only
// from the extension's own resources or with the nonce) and the bundled webview script.
import { randomBytes } from "node:crypto";
import * as vscode from "vscode";

/** Only these folders may be loaded into the webview. */
export function resourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, "dist"), vscode.Uri.joinPath(extensionUri, "media")];
}

export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString("base64");
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, "dist", "webview.js"));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, "media", "chat.css"));
  const icons = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, "dist", "codicon.css"));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<!-- FAST (under the toolkit) probes :focus-visible with a <style> element carrying this nonce. -->
<meta property="csp-nonce" content="${nonce}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${icons}">
<link rel="stylesheet" href="${style}">
<title>Hearth</title>
</head>
<body>
<main id="app"></main>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
