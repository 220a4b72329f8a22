// Configuration keys whose value is a URL (a remote's fetch and push URLs, a proxy): a credential in one
// sits in its user-info, which the companion can see on disk (guards/git-contents.ts checks every file
// git reads its configuration from, as for `git remote -v`), so `git config --get remote.origin.url` is
// judged like `git remote -v`, not as a read of the whole configuration. Sections and variable names are
// case-insensitive to git; a subsection (the remote's name) may hold dots.
const URL_KEY = /^(remote\..+\.(url|pushurl|proxy)|https?\.(.+\.)?proxy)$/i;

export function isUrlConfigKey(key: string): boolean {
  return URL_KEY.test(key);
}
