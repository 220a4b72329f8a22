// The real mvdan-sh entry, imported by path so the Worker's alias for "mvdan-sh" does not catch it.
declare module "mvdan-sh/index.js" {
  import sh from "mvdan-sh";
  export default sh;
}
