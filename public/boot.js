// Before the first paint: the loading skeleton takes the shape of the screen being opened, the
// portal's (header, menu or tab bar, content) under /portal and /admin, the login form's elsewhere.
// A file, not inline: the CSP allows scripts from this origin only.
if (/^\/(portal|admin)(\/|$)/.test(location.pathname)) document.documentElement.className += ' boot-at-portal';
