// What python loads before the module it is asked to run (`python3 -m json.tool`, `pip list`), found as
// python 3.11 finds it. With -m (and neither -P nor -I), the directory it runs in is first on sys.path: a
// `json.py`, a `json/` package, `argparse.py` or `gettext.py` there is imported instead of the standard
// library's, running its code (proven in real python, test/node/companion/guards/overask13-python.test.ts).
// Any module of the standard library may be imported by a run, so an importable file or package named like
// one of them, or like the module itself, asks. And a python (or pip) from a virtual environment in the
// workspace runs that environment's .pth files and sitecustomize at start-up and pip reads its pip.conf
// (whose `python` runs another interpreter): the project's code, unless the venv is the person's installed
// code by the rule the PATH lookup uses (python-venv.ts), so `pytest`, `python -m pytest` and `pip list`
// with an ordinary `.venv` activated are judged alike. A PYTHONPATH, PYTHONUSERBASE or PYTHONHOME in the
// agent's environment that leads into the workspace asks too.
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { statEntry } from "./fs-entry.ts";
import { pathView, programFact } from "./path-lookup.ts";
import { isVirtualenv, virtualenvDoubt } from "./python-venv.ts";
import { isWithin } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

/** Every top-level module of python 3.11's standard library (`sys.stdlib_module_names`), and some of 3.12-3.14's. */
const STDLIB = new Set(
  `__future__ _abc _aix_support _ast _asyncio _bisect _blake2 _bootsubprocess _bz2 _codecs _codecs_cn _codecs_hk
  _codecs_iso2022 _codecs_jp _codecs_kr _codecs_tw _collections _collections_abc _compat_pickle _compression
  _contextvars _crypt _csv _ctypes _curses _curses_panel _datetime _dbm _decimal _elementtree _frozen_importlib
  _frozen_importlib_external _functools _gdbm _hashlib _heapq _imp _io _json _locale _lsprof _lzma _markupbase
  _md5 _msi _multibytecodec _multiprocessing _opcode _operator _osx_support _overlapped _pickle _posixshmem
  _posixsubprocess _py_abc _pydecimal _pyio _queue _random _scproxy _sha1 _sha256 _sha3 _sha512 _signal
  _sitebuiltins _socket _sqlite3 _sre _ssl _stat _statistics _string _strptime _struct _symtable _thread
  _threading_local _tkinter _tokenize _tracemalloc _typing _uuid _warnings _weakref _weakrefset _winapi
  _zoneinfo abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb
  binascii bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections
  colorsys compileall concurrent configparser contextlib contextvars copy copyreg crypt csv ctypes curses
  dataclasses datetime dbm decimal difflib dis distutils doctest email encodings ensurepip enum errno
  faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools gc genericpath getopt getpass gettext
  glob graphlib grp gzip hashlib heapq hmac html http idlelib imaplib imghdr imp importlib inspect io ipaddress
  itertools json keyword lib2to3 linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap
  modulefinder msilib msvcrt multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator
  optparse os ossaudiodev pathlib pdb pickle pickletools pipes pkgutil platform plistlib poplib posix posixpath
  pprint profile pstats pty pwd py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re readline
  reprlib resource rlcompleter runpy sched secrets select selectors shelve shlex shutil signal site smtpd
  smtplib sndhdr socket socketserver spwd sqlite3 sre_compile sre_constants sre_parse ssl stat statistics
  string stringprep struct subprocess sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile
  termios textwrap this threading time timeit tkinter token tokenize tomllib trace traceback tracemalloc tty
  turtle turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref webbrowser
  winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo
  _colorize _pyrepl annotationlib compression _opcode_metadata _sysconfig _interpreters _suggestions`.split(
    /\s+/,
  ),
);

/**
 * Names outside the standard library a run may import only if present (pip's optional `keyring`,
 * `truststore`, packaging's `_manylinux`): a directory by such a name is imported even without an
 * `__init__.py` (a namespace package, whose submodules then load from it).
 */
const OPTIONAL = new Set(["keyring", "truststore", "_manylinux"]);

/** Suffixes python imports a module from (source, bytecode, extension). */
const MODULE_FILE = /\.(py|pyc|pyw|so|pyd)$/;

/**
 * An entry of the first sys.path directory that python would import for a module name a run may use: a
 * module file (`json.py`, `json.cpython-311-x86_64-linux-gnu.so`) or a regular package (`json/__init__.py`).
 * A directory without `__init__.py` is a namespace portion, which a regular module later on sys.path
 * outranks, so it counts only for the run's own module and the optional names.
 */
function shadowing(dir: string, own: string): string | null {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return ".";
  }
  for (const name of names) {
    const stem = name.split(".")[0] as string;
    const anyDir = stem === own || OPTIONAL.has(stem);
    if (!anyDir && !STDLIB.has(stem)) continue;
    const path = join(dir, name);
    const isDir = statEntry(path)?.isDirectory() === true;
    if (isDir ? name === stem && (anyDir || packageInit(path)) : MODULE_FILE.test(name)) return name;
  }
  return null;
}

function packageInit(dir: string): boolean {
  try {
    return readdirSync(dir).some((n) => n.startsWith("__init__."));
  } catch {
    return true;
  }
}

/** Why what python loads before `module` (run from `dir`) is not only the installed standard library and pip. */
export function pythonStartFact(
  dir: string,
  program: string,
  module: string | null,
  env: NodeJS.ProcessEnv,
  workspace: string,
  subject: string,
): CallFact | null {
  const venv = env.VIRTUAL_ENV;
  if (venv !== undefined && venv !== "" && isWithin(workspace, venv)) {
    const doubt = isVirtualenv(venv)
      ? virtualenvDoubt(venv, workspace)
      : `\`${shownPath(venv, workspace)}\` holds no pyvenv.cfg`;
    if (doubt !== null)
      return {
        subject,
        reason: `python runs from the virtual environment \`${shownPath(venv, workspace)}\` in the workspace (its start-up runs that environment's .pth files and sitecustomize, and pip reads its pip.conf), and ${doubt}`,
      };
  }
  // PYTHONPATH comes before the standard library, PYTHONUSERBASE's site-packages run their .pth files. A
  // relative entry (`PYTHONPATH=lib`, or an empty one) is python's working directory's (red team, round 23b).
  for (const name of ["PYTHONPATH", "PYTHONUSERBASE", "PYTHONHOME"]) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    const inside = value
      .split(":")
      .map((d) => (d === "" ? dir : resolve(dir, d)))
      .find((d) => isWithin(workspace, d));
    if (inside !== undefined)
      return {
        subject,
        reason: `${name} in the agent's environment holds \`${shownPath(inside, workspace)}\`, in the workspace: python loads modules from it`,
      };
  }
  // Which python runs is the PATH lookup's, by the same rule as any program's (path-lookup.ts).
  const view = program.includes("/") ? null : pathView(env, workspace);
  const found =
    view === null
      ? null
      : programFact({ kind: "program", name: program, dir, written: [], shown: subject }, view, workspace);
  if (found !== null) return found;
  if (module === null) return null;
  const entry = shadowing(dir, module.split(".")[0] as string);
  return entry === null
    ? null
    : {
        subject,
        reason: `\`${shownPath(join(dir, entry), workspace)}\` is importable from the directory python runs in, which -m puts first on sys.path: python would import it in place of the installed module, running its code`,
      };
}
