// The one element helper of the view's own parts: text only ever goes in as textContent.
export function el(tag: string, className?: string, text?: string, testId?: string): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  if (testId) node.dataset.testid = testId;
  return node;
}
