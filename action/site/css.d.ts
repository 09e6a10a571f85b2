// esbuild bundles the stylesheets the app imports into benchgate-app.css; they export nothing.
declare module "*.css";
