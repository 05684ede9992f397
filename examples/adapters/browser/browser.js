'use strict';
// Headless Chromium for the browser adapter: started once per adapter
// process with a temporary profile, one page whose every request is served
// from files on this machine (request interception: the page and the
// libraries' files, nothing else; every other request is aborted, so the
// page never reaches the network).

const fs = require('fs');
const os = require('os');
const path = require('path');

const CHROMIUM = process.env.MOVCONF_CHROMIUM || '/usr/bin/chromium';
// An origin that resolves nowhere: https, so that the page is a secure
// context (WebGPU needs one), and served only by the interception below.
const ORIGIN = 'https://movconf.invalid/';
const ARGS = ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
              '--enable-unsafe-webgpu', '--no-first-run', '--no-default-browser-check',
              '--disable-background-networking', '--disable-component-update',
              '--disable-sync', '--mute-audio'];

const CONTENT_TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript',
                        '.wasm': 'application/wasm', '.html': 'text/html' };

// files: URL path (without the origin) -> absolute file name; the page
// loads `scripts` (URL paths) in order.
function pageHtml(scripts) {
  const tags = scripts.map((s) => `<script src="${ORIGIN}${s}"></script>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>movconf</title><link rel="icon" href="data:,">\n${tags}\n` +
         '</head><body></body></html>\n';
}

async function serveRequest(request, files, html) {
  const url = request.url();
  if (!url.startsWith(ORIGIN)) return request.abort('blockedbyclient');
  const name = url.slice(ORIGIN.length).split(/[?#]/)[0];
  if (name === 'index.html')
    return request.respond({ status: 200, contentType: CONTENT_TYPES['.html'], body: html });
  const file = files[name];
  if (!file) return request.respond({ status: 404, contentType: 'text/plain', body: 'not served' });
  return request.respond({ status: 200, body: fs.readFileSync(file),
                           contentType: CONTENT_TYPES[path.extname(file)] || 'application/octet-stream',
                           headers: { 'Cross-Origin-Opener-Policy': 'same-origin',
                                      'Cross-Origin-Embedder-Policy': 'require-corp' } });
}

// Starts Chromium and opens the page; returns {browser, page, close, shutdown}.
// close() kills Chromium and removes its profile; it runs on every exit of
// the adapter too, and movconf reaps whatever a killed adapter leaves.
// A renderer crash or a lost browser calls onFailure(message): a DevTools
// call in flight would otherwise wait forever.
async function openPage(puppeteer, { files, scripts, log, onFailure }) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'movconf-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM, headless: true, args: ARGS, userDataDir: profile,
    pipe: true, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
    protocolTimeout: 0,
  });
  const close = () => {
    const child = browser.process();
    if (child && child.exitCode === null) child.kill('SIGKILL');
    // Chromium may still be writing the profile as it dies: best effort.
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
    } catch (e) {
      process.stderr.write(`browser: leaving ${profile}: ${e.message}\n`);
    }
  };
  process.on('exit', close);
  // The orderly end: Chromium closed and waited for, so that its profile
  // can go (close() alone may race a dying Chromium still writing it).
  const shutdown = async () => {
    closing = true;
    await browser.close().catch(() => {});
    close();
  };
  let closing = false;
  browser.on('disconnected', () => {
    if (!closing) onFailure('the browser closed its DevTools connection');
  });
  const page = await browser.newPage();
  page.on('error', (e) => onFailure(`the page crashed: ${e.message}`));
  page.on('console', (m) => log(`page console: ${m.text()}`));
  page.on('pageerror', (e) => log(`page error: ${e.message}`));
  await page.setRequestInterception(true);
  const html = pageHtml(scripts);
  page.on('request', (request) => {
    serveRequest(request, files, html).catch((e) => log(`serving ${request.url()}: ${e.message}`));
  });
  await page.goto(`${ORIGIN}index.html`, { waitUntil: 'load', timeout: 0 });
  return { browser, page, close, shutdown };
}

module.exports = { ORIGIN, openPage };
