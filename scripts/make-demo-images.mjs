// Draws the demo pictures shipped in public/demo (run once; the SVGs are committed).
import { mkdirSync, writeFileSync } from 'node:fs';

const dishes = {
  'kitchen-indian': ['#f4a259', '#bc4b51', '#f7e1a0'],
  'kitchen-mexican': ['#e76f51', '#2a9d8f', '#e9c46a'],
  'kitchen-filipino': ['#5b8e7d', '#8c4843', '#f4e285'],
  'kitchen-italian': ['#c1121f', '#669bbc', '#fdf0d5'],
  'kitchen-nigerian': ['#dd6e42', '#4f6d7a', '#e8dab2'],
  'kitchen-korean': ['#c44536', '#283d3b', '#edddd4'],
  'dish-red': ['#d62828', '#f77f00', '#fcbf49'],
  'dish-green': ['#588157', '#a3b18a', '#dad7cd'],
  'dish-brown': ['#7f4f24', '#b08968', '#ede0d4'],
  'dish-yellow': ['#ffb703', '#fb8500', '#fff3b0'],
  'dish-purple': ['#7b2cbf', '#c77dff', '#e0aaff'],
  'dish-white': ['#adb5bd', '#e9ecef', '#f8f9fa'],
};

function kitchenSvg([a, b, c]) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 260"><rect width="400" height="260" fill="${c}"/><rect y="170" width="400" height="90" fill="${b}"/><rect x="40" y="60" width="120" height="110" rx="6" fill="${a}"/><rect x="60" y="85" width="30" height="30" fill="${c}"/><rect x="110" y="85" width="30" height="30" fill="${c}"/><polygon points="30,65 100,20 170,65" fill="${b}"/><circle cx="280" cy="150" r="60" fill="#fff" opacity=".9"/><circle cx="280" cy="150" r="42" fill="${a}"/><circle cx="265" cy="140" r="10" fill="${c}"/><circle cx="295" cy="160" r="8" fill="${b}"/><rect x="350" y="95" width="8" height="110" rx="4" fill="#6c757d"/></svg>\n`;
}

function dishSvg([a, b, c]) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 220"><rect width="300" height="220" fill="${c}"/><ellipse cx="150" cy="120" rx="110" ry="80" fill="#fff"/><ellipse cx="150" cy="118" rx="82" ry="58" fill="${a}"/><circle cx="125" cy="105" r="16" fill="${b}"/><circle cx="170" cy="125" r="13" fill="${b}"/><circle cx="150" cy="95" r="7" fill="${c}"/><circle cx="185" cy="100" r="6" fill="${c}"/></svg>\n`;
}

mkdirSync('public/demo', { recursive: true });
for (const [name, colors] of Object.entries(dishes)) {
  writeFileSync(`public/demo/${name}.svg`, name.startsWith('kitchen') ? kitchenSvg(colors) : dishSvg(colors));
}
writeFileSync(
  'public/demo/fallback.svg',
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 200"><rect width="300" height="200" fill="#e9ecef"/><circle cx="150" cy="100" r="55" fill="#fff"/><circle cx="150" cy="100" r="38" fill="#dee2e6"/><rect x="70" y="60" width="6" height="80" rx="3" fill="#adb5bd"/><rect x="224" y="60" width="6" height="80" rx="3" fill="#adb5bd"/></svg>\n`,
);
writeFileSync(
  'public/demo/avatar.svg',
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="32" fill="#ced4da"/><circle cx="32" cy="25" r="12" fill="#f8f9fa"/><ellipse cx="32" cy="56" rx="20" ry="14" fill="#f8f9fa"/></svg>\n`,
);
