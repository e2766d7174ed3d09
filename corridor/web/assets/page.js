// Updates the results in place when a control changes: the server renders them, as without script.
"use strict";
(function () {
  const form = document.getElementById("quote-form");
  let latest = 0;

  function queryString() {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (value !== "" && !(name === "mode" && value === "send")) params.set(name, value);
    }
    return params.toString();
  }

  async function update() {
    const query = queryString();
    const target = query ? "/?" + query : "/";
    const ticket = ++latest;
    let fresh = null;
    try {
      const response = await fetch(target, { headers: { Accept: "text/html" } });
      fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("results");
    } catch (error) {
      fresh = null;
    }
    if (ticket !== latest) return; // a later change is on its way
    // no results in the answer (the network, or a server in front): load the page as a form would
    if (!fresh) { location.assign(target); return; }
    document.getElementById("results").replaceWith(fresh);
    history.replaceState(null, "", target);
  }

  let timer;
  form.addEventListener("change", () => { clearTimeout(timer); update(); });
  form.addEventListener("input", (event) => {
    if (event.target.id !== "amount") return;
    clearTimeout(timer);
    timer = setTimeout(update, 300);
  });
  form.addEventListener("submit", (event) => { event.preventDefault(); clearTimeout(timer); update(); });
})();
