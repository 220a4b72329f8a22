// Types for mvdan-sh (mvdan/sh compiled to JS), which ships none. Only what the engine reads.
declare module "mvdan-sh" {
  export interface ShPos {
    Offset(): number;
    Line(): number;
    Col(): number;
  }
  export interface ShNode {
    Pos(): ShPos;
    End(): ShPos;
  }
  export interface ShParser {
    Parse(src: string, name: string): ShNode;
  }
  export interface ShSyntax {
    NewParser(...options: unknown[]): ShParser;
    NodeType(node: ShNode): string;
    Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
    Variant(lang: unknown): unknown;
    LangBash: unknown;
    LangPOSIX: unknown;
  }
  const sh: { syntax: ShSyntax };
  export default sh;
}
