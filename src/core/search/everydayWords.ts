// Everyday words for what tools say in software words: general English (a thesaurus of common
// verbs and nouns), not any server's vocabulary. A query word also looks for these, at a lower weight.

/** Everyday verb -> the software verbs tool names and descriptions use. */
const VERBS: Record<string, readonly string[]> = {
  press: ['click'], tap: ['click'], hit: ['click'], tick: ['click', 'check', 'complete'],
  type: ['fill', 'input', 'enter'], enter: ['fill', 'input'],
  pick: ['select', 'choose'], choose: ['select'],
  grab: ['get', 'capture', 'extract'], fetch: ['get', 'retrieve'], retrieve: ['get'], pull: ['get', 'fetch', 'extract'], obtain: ['get'],
  see: ['view', 'list', 'read'], display: ['view', 'list'], check: ['status', 'get', 'verify'],
  tell: ['send', 'message', 'post'], notify: ['send', 'message', 'alert'], announce: ['post', 'send', 'message'], message: ['send', 'post'], ping: ['send', 'message'],
  answer: ['reply', 'respond'], respond: ['reply'],
  kill: ['terminate', 'stop'], terminate: ['stop', 'kill'], end: ['stop', 'close', 'terminate'], halt: ['stop'], cancel: ['stop', 'abort'], abort: ['stop', 'cancel'], quit: ['stop', 'exit'],
  launch: ['start', 'run', 'open'], begin: ['start'], trigger: ['run', 'start'], fire: ['trigger', 'run'],
  restart: ['rerun', 'reload'],
    complete: ['close', 'done'], done: ['complete', 'close'],
  trash: ['delete'], clear: ['delete', 'remove'], delete: ['remove'],
  tweak: ['update', 'edit'], fix: ['update', 'edit', 'resolve'], adjust: ['update', 'edit'], alter: ['update', 'edit'], set: ['update', 'config'], rename: ['update', 'name'],
  insert: ['add', 'create'], append: ['add'], put: ['add', 'write', 'move'], write: ['create', 'add'],   setup: ['create'], start: ['create', 'run'],
  locate: ['find', 'search'], seek: ['search', 'find'], grep: ['search'], discover: ['find', 'list'], explore: ['list', 'browse'],
  download: ['export', 'get', 'save'], export: ['download'],   copy: ['duplicate'], duplicate: ['copy'], relocate: ['move'], transfer: ['move'], shift: ['move'], postpone: ['update', 'due', 'date'], reschedule: ['update', 'due', 'date'],
  summarize: ['summary'], watch: ['monitor'], track: ['monitor'], monitor: ['watch'], alert: ['monitor', 'notify'],
    compare: ['comparison'], connect: ['link', 'relation'], link: ['connect', 'relation'], join: ['add', 'connect'],
    describe: ['detail'], inspect: ['detail', 'describe'],
  publish: ['post', 'release'], reply: ['comment'], react: ['reaction'],
  translate: ['convert'], convert: ['transform'], parse: ['read', 'extract'], scan: ['search', 'read'],
  deploy: ['release', 'apply'], ship: ['release', 'deploy'], install: ['setup'], uninstall: ['remove'],
  research: ['search', 'investigate'], investigate: ['analyze'], analyse: ['analyze'], diagnose: ['analyze', 'debug'], debug: ['analyze'],
};

/** Everyday noun -> the software nouns tool names and descriptions use. */
const NOUNS: Record<string, readonly string[]> = {
  button: ['click', 'element'], box: ['input', 'field'], dropdown: ['select', 'option'], menu: ['element'], mouse: ['hover', 'click'],
  picture: ['image', 'screenshot'], photo: ['image'], snapshot: ['screenshot'], clip: ['video'], movie: ['video'],
  headline: ['news'], article: ['news', 'page'], paper: ['article'], study: ['paper'],
  nearest: ['local', 'place'], where: ['location', 'place'],
    people: ['user', 'member'], person: ['user', 'member'], member: ['user'], who: ['user', 'member'],   chat: ['message', 'channel'],   note: ['comment'], remark: ['comment', 'note'], tag: ['label'], label: ['tag'],
    property: ['field'], field: ['property', 'column'],
  crash: ['error', 'issue', 'exception'], error: ['issue', 'exception'], problem: ['issue', 'error'], defect: ['issue', 'bug'], exception: ['error'],
  app: ['application', 'project'], application: ['app', 'project'], version: ['release'], release: ['version'],
  key: ['token', 'credential'], password: ['credential', 'secret'], secret: ['credential'],
  output: ['log'], log: ['output'], print: ['output', 'log'],
  site: ['website', 'url', 'page'], website: ['site', 'url'], page: ['url'], web: ['internet', 'online', 'search'], online: ['web', 'internet'], internet: ['web'],   subtitle: ['transcript', 'caption'], caption: ['transcript', 'subtitle'],
  terminal: ['shell', 'command', 'process'], shell: ['terminal', 'command', 'process'], console: ['terminal', 'shell'], command: ['process', 'terminal'],
    task: ['todo'], todo: ['task'], chore: ['task'], reminder: ['task'],
      history: ['recent', 'previous', 'past'], past: ['history', 'previous'], previous: ['last', 'history'], recent: ['latest', 'last'], latest: ['recent', 'last'],       structure: ['schema', 'hierarchy'],
  count: ['number'], number: ['count'],   status: ['state'], state: ['status'], detail: ['info', 'information'], info: ['detail', 'information'],
  address: ['location'], location: ['place', 'address'], map: ['location'],
    team: ['group'], group: ['team'], org: ['organization'], company: ['organization'], organisation: ['organization'],
  test: ['check'], build: ['pipeline', 'job'], job: ['pipeline', 'build'],
  server: ['host', 'machine'], database: ['db'], db: ['database'], };

/** Everyday words and what tools call them instead: verbs and nouns in one table. */
export const EVERYDAY: Record<string, readonly string[]> = { ...NOUNS, ...VERBS };
