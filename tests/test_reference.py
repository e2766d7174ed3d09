"""The reference for people at /api/docs/guide: docs/API.md as a page, whose every link and picture resolves."""

import re
from html import unescape
from urllib.parse import urljoin, urlsplit

import pytest
from expected import SEED

DOCS = SEED.parent / "docs"


def test_the_guide_is_api_md_as_a_page_nobody_can_frame(client):
    response = client.get("/api/docs/guide")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert response.headers["Content-Security-Policy"] == "default-src 'self'; frame-ancestors 'none'"
    assert response.headers["X-Frame-Options"] == "DENY"
    html = response.get_data(as_text=True)
    assert "<title>Corridor API reference</title>" in html  # the service's name once
    headings = [unescape(re.sub(r"<[^>]+>", "", h)) for h in re.findall(r"<h2 [^>]*>(.*?)</h2>", html)]
    assert headings == re.findall(r"^## (.+)$", (DOCS / "API.md").read_text(encoding="utf-8").replace("`", ""), re.M)
    assert "<script" not in html and " style=" not in html


@pytest.mark.parametrize(
    ("page", "title"),
    [
        ("/api/docs/DATA.md", "The data file: Corridor API"),
        ("/api/docs/OPERATIONS.md", "Operating Corridor API"),
        ("/api/docs/PERFORMANCE.md", "Performance: Corridor API"),
    ],
)
def test_each_document_names_the_service_once_in_its_title(client, page, title):
    assert f"<title>{title}</title>" in client.get(page).get_data(as_text=True)


def test_the_openapi_document_points_to_the_guide(client):
    assert "/api/docs/guide" in client.get("/api/openapi.json").get_json()["info"]["description"]


@pytest.mark.parametrize(
    "page", ["/api/docs/guide", "/api/docs/DATA.md", "/api/docs/OPERATIONS.md", "/api/docs/PERFORMANCE.md"]
)
def test_every_link_and_picture_of_a_reference_page_resolves(client, page):
    html = client.get(page).get_data(as_text=True)
    targets = re.findall(r'(?:href|src)="([^"]+)"', html)
    assert targets
    for target in targets:
        url = urlsplit(urljoin(f"http://localhost{page}", unescape(target)))
        if url.netloc != "localhost":
            continue  # elsewhere: the ECB, the World Bank
        answer = client.get(url.path)
        assert answer.status_code == 200, (page, target)
        if url.fragment:
            assert f'id="{url.fragment}"' in answer.get_data(as_text=True), (page, target)


@pytest.mark.parametrize(
    "path",
    [
        "/api/docs/API.md",
        "/api/docs/README.md",
        "/api/docs/nope.png",
        "/api/docs/..%2Fseed_data.json",
        "/api/docs/%2E%2E.png",
    ],
)
def test_nothing_else_of_the_folder_is_served(client, path):
    assert client.get(path).status_code == 404
