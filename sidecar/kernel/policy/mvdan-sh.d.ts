// Types for the parts of mvdan-sh (mvdan/sh compiled to JavaScript) that shellCommand.ts uses; the
// package ships none. Nodes are GopherJS objects: fields keep their Go names.
declare module "mvdan-sh" {
  export interface ShNode {
    readonly [field: string]: unknown;
  }
  export interface ShParser {
    /** Throws a parse error object whose Error() is "line:col: message". */
    Parse(src: string, name: string): ShNode;
  }
  export interface ShSyntax {
    NewParser(...options: unknown[]): ShParser;
    Variant(lang: unknown): unknown;
    readonly LangPOSIX: unknown;
    NodeType(node: ShNode): string;
    Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
  }
  const sh: { readonly syntax: ShSyntax };
  export default sh;
}
