// Restricted Mode, said where the person chats: what Hearth may not do in an untrusted folder, why,
// and the one action that lifts it. Trusting the folder removes the banner without a reload.
export function renderTrustBanner(banner: HTMLElement, restricted: boolean, manageTrust: () => void): void {
  banner.hidden = !restricted;
  if (!restricted) {
    banner.replaceChildren();
    return;
  }
  const text = document.createElement("p");
  text.textContent =
    "Restricted Mode: this folder is not trusted, so Hearth only reads, lists and searches it. " +
    "It will not write or edit files, run commands or use the network here until you trust the folder.";
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Manage Workspace Trust";
  button.addEventListener("click", manageTrust);
  banner.replaceChildren(text, button);
}
