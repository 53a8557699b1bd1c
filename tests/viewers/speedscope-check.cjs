// speedscope-check.cjs VIEWERS_DIR PROFILE.json SHOT_PREFIX NAMES PROFILE_NAME THREAD...
// Open PROFILE.json in speedscope (from the npm registry, installed in VIEWERS_DIR) in Debian's
// Chromium, headless, driven by playwright-core: serve speedscope's release files and the profile
// on a loopback port, load it with #profileURL=, wait until speedscope shows it, and check:
//  - it loaded without an error;
//  - the time-order flame chart was drawn (the screenshot below the toolbar is not blank):
//    SHOT_PREFIX-time-order.png;
//  - its profile list names every THREAD ("pCPU 0", ...); then it selects PROFILE_NAME ("" keeps
//    the first);
//  - the left-heavy view (identical stacks merged, so that names fit their frames) is drawn:
//    SHOT_PREFIX-left-heavy.png;
//  - the sandwich view's table, which is text on the page, lists every name of NAMES (comma-
//    separated function names): the viewer shows the functions by name, not only boxes;
//    SHOT_PREFIX-sandwich.png.
// Prints one line per check ("ok ..." / "not ok ...") and exits 1 if any failed.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');

const [viewers, profile, prefix, nameList, select, ...threads] = process.argv.slice(2);
const names = nameList ? nameList.split(',') : [];
const { chromium } = require(path.join(viewers, 'node_modules', 'playwright-core'));
const release = path.join(viewers, 'node_modules', 'speedscope', 'dist', 'release');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
    '.json': 'application/json', '.png': 'image/png', '.woff2': 'font/woff2', '.ico': 'image/x-icon' };

let failed = 0;
function check(ok, what) {
    console.log(`${ok ? 'ok' : 'not ok'} ${what}`);
    if (!ok) failed++;
}

const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split('?')[0]);
    const file = url === '/profile.json' ? profile
        : path.join(release, path.normalize(url === '/' ? '/index.html' : url));
    if (url !== '/profile.json' && !file.startsWith(release)) { res.writeHead(403); res.end(); return; }
    fs.readFile(file, (err, data) => {
        if (err) { res.writeHead(404); res.end(); return; }
        res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
        res.end(data);
    });
});

// The colours of a screenshot below the toolbar, decoded by a 2D canvas of a blank page (the
// flame chart is WebGL; a blank chart has its grid only).
async function colours(browser, png) {
    const blank = await browser.newPage();
    const n = await blank.evaluate(async b64 => {
        const img = new Image();
        img.src = 'data:image/png;base64,' + b64;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const d = ctx.getImageData(0, 24, img.width, img.height - 24).data;
        const seen = new Set();
        for (let i = 0; i < d.length; i += 4)
            seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
        return seen.size;
    }, png.toString('base64'));
    await blank.close();
    return n;
}

(async () => {
    await new Promise(r => server.listen(0, '127.0.0.1', r));
    const port = server.address().port;
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu'] });
    try {
        const page = await browser.newPage({ viewport: { width: 1400, height: 420 } });
        const errors = [];
        page.on('pageerror', e => errors.push(String(e)));
        page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
        await page.goto(`http://127.0.0.1:${port}/#profileURL=${encodeURIComponent(`http://127.0.0.1:${port}/profile.json`)}`);
        // speedscope names the page after the loaded profile.
        let loaded = true;
        try {
            await page.waitForFunction(() => / - speedscope$/.test(document.title), null, { timeout: 120000 });
        } catch (e) {
            loaded = false;
        }
        const text = await page.evaluate(() => document.body.innerText);
        check(loaded, `speedscope loaded the profile (title: ${await page.title()})`);
        check(!/error|something went wrong|unrecognized/i.test(text) && errors.length === 0,
            `no error shown or logged${errors.length ? ': ' + errors.slice(0, 3).join(' | ') : ''}`);
        await page.waitForTimeout(1500);
        const timeOrder = `${prefix}-time-order.png`;
        let n = await colours(browser, await page.screenshot({ path: timeOrder }));
        check(n > 16, `the time-order flame chart is drawn (${n} colours below the toolbar)`);
        // The profile selector lists the profiles, one per thread: open it, read them, pick one.
        let listed = await page.evaluate(() => document.body.innerText);
        const toggle = page.getByText(/pCPU \d+/).first();
        if (await toggle.count()) {
            await toggle.click().catch(() => {});
            await page.waitForTimeout(500);
            listed = await page.evaluate(() => document.body.innerText);
        }
        for (const t of threads)
            check(listed.includes(t), `speedscope lists thread "${t}"`);
        if (select) {
            await page.getByText(select).first().click();
            await page.waitForTimeout(1000);
            const title = await page.evaluate(() => document.body.innerText);
            check(title.includes(select), `speedscope shows the profile "${select}"`);
        } else {
            await page.keyboard.press('Escape');
        }
        await page.mouse.click(700, 300);
        // Left heavy: each stack once, as wide as its total time, its name inside.
        await page.keyboard.press('2');
        await page.waitForTimeout(1500);
        const leftHeavy = `${prefix}-left-heavy.png`;
        n = await colours(browser, await page.screenshot({ path: leftHeavy }));
        check(n > 16, `the left-heavy flame chart is drawn (${n} colours below the toolbar)`);
        // Sandwich: a table of the functions, as text.
        await page.keyboard.press('3');
        await page.waitForTimeout(1500);
        await page.screenshot({ path: `${prefix}-sandwich.png` });
        const table = await page.evaluate(() => document.body.innerText);
        for (const name of names)
            check(table.includes(name), `the sandwich view lists the function "${name}" by name`);
        check(names.length > 0, `${names.length} function names looked for`);
        for (const shot of [timeOrder, leftHeavy])
            check(fs.existsSync(shot) && fs.statSync(shot).size > 10000, `screenshot ${path.basename(shot)}`);
    } finally {
        await browser.close();
        server.close();
    }
    process.exit(failed ? 1 : 0);
})().catch(e => { console.log(`not ok speedscope check: ${e}`); process.exit(1); });
