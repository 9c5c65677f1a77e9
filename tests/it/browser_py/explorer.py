"""The explorer end to end in headless Chromium, driven by Selenium. tests/it/explore.rs starts
the server and an institutional account holding a private dataset and a briefing, then runs this
script with a JSON file of what it made:

    {"origin", "base_path", "email", "password", "briefing_id", "private_title", "private_code",
     "screenshots", "other": {"email", "password", "private_title", "private_code"}}

Another account then signs in on the same browser and must see its own private dataset and
nothing of the first account's. Every step asserts what a person would see; the console must stay free of errors (refusals a
step provokes aside). Screenshots of each page, on a desktop and a narrow screen, go to
`screenshots`. Exits non-zero, saying which step failed, on the first failure."""

import json
import sys
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from account_area import Area, Steps, browser, check

# Citation pages opened from a page in the browser (the HTTP tests open every one).
CITATIONS_PER_PAGE = 12


def css(area, selector, within=None):
    return (within or area.driver).find_elements(By.CSS_SELECTOR, selector)


def values_lead_to_their_rows(area, page):
    """Each value link of the page (up to CITATIONS_PER_PAGE) opens a citation page showing the
    same value."""
    links = [(a.get_attribute("href"), a.get_attribute("data-value")) for a in css(area, "a.value")]
    check(links, f"{page} links no value to a citation")
    step = max(1, len(links) // CITATIONS_PER_PAGE)
    for href, value in links[::step]:
        area.driver.get(href)
        shown = css(area, '[data-testid="value"]')
        check(shown and shown[0].get_attribute("data-value") == value,
              f"{href} (linked from {page} as {value}) shows {[s.text for s in shown]}")
    area.console()


def find_a_region(area):
    area.open("/")
    area.testid("explore-link").click()
    area.until("the home page leads to the explorer", lambda: area.driver.current_url.endswith("/explore"))
    box = area.testid("region-search")
    box.send_keys("Oberbayern", Keys.ENTER)
    area.until("the search lists Oberbayern", lambda: css(area, 'a[href="/explore/regions/DE21"]'))
    area.screenshot("explore-search")
    css(area, 'a[href="/explore/regions/DE21"]')[0].click()
    area.until("the region page opens", lambda: area.driver.current_url.endswith("/explore/regions/DE21"))
    area.console()


def region_page(area, private_title):
    area.open("/explore/regions/DE21")
    check(area.testid("region-code").text == "DE21", "the region page names another code")
    sections = css(area, "section.indicator")
    check(len(sections) >= 5, f"{len(sections)} headline series")
    for section in sections:
        points = css(area, "svg.chart a.point", section)
        rows = css(area, "details.figures tbody tr", section)
        valued = [r for r in rows if css(area, "a.value", r)]
        check(len(points) == len(valued),
              f"{section.get_attribute('id')}: {len(points)} points for {len(valued)} periods with a value")
    # Keyboard focus reaches the chart's points.
    point = css(area, "svg.chart a.point")[0]
    area.driver.execute_script("arguments[0].focus()", point)
    check(area.driver.switch_to.active_element == point, "a chart point takes no keyboard focus")
    check(css(area, "figure.locator path.here"), "the locator map does not draw the region")
    check(private_title in area.driver.page_source, "the signed-in owner does not see its dataset")
    area.screenshot("explore-region")
    area.console()
    values_lead_to_their_rows(area, "the region page")


def map_page(area):
    area.open("/explore/maps/tgs00010")
    regions = css(area, "figure.choropleth a.region")
    table = css(area, '[data-testid="map-table"] tbody tr')
    valued = [r for r in table if css(area, "a.value", r)]
    unmapped = css(area, '[data-testid="unmapped"] li')
    shaded = [r for r in regions if "missing" not in r.get_attribute("class")]
    check(len(shaded) == len(valued) - len(unmapped),
          f"{len(shaded)} shaded regions for {len(valued)} values ({len(unmapped)} not on the map)")
    # The darkest class is drawn in the palette's darkest colour.
    darkest = [r for r in shaded if "q5" in r.get_attribute("class")][0]
    fill = area.driver.execute_script(
        "return getComputedStyle(arguments[0].querySelector('path')).fill", darkest)
    check(fill == "rgb(37, 52, 148)", f"class 5 is filled {fill}")
    code = darkest.get_attribute("data-code")
    info = area.driver.find_element(By.CSS_SELECTOR, "[data-map-info]")
    # Focus from the keyboard's side; then the pointer over another region.
    area.driver.execute_script("arguments[0].scrollIntoView(); arguments[0].focus()", darkest)
    area.until("focusing a region names it and its value", lambda: f"({code})" in info.text)
    other = shaded[0] if shaded[0] != darkest else shaded[1]
    ActionChains(area.driver).move_to_element(other.find_element(By.TAG_NAME, "path")).perform()
    area.until("pointing at a region names it", lambda: f"({code})" not in info.text)
    area.screenshot("explore-map")
    # Enter on the focused region opens it, as a click with the pointer does: the pointer clicks
    # the first shaded region whose shape holds the middle of its box (not every shape does).
    area.driver.execute_script("arguments[0].focus()", darkest)
    darkest.send_keys(Keys.ENTER)
    area.until(f"Enter on {code} opens its page",
               lambda: area.driver.current_url.endswith(f"/explore/regions/{code}"))
    area.open("/explore/maps/tgs00010")
    target = area.driver.execute_script("""
        for (const region of document.querySelectorAll('figure.choropleth a.region:not(.missing)')) {
            region.scrollIntoView({block: 'center'});
            const box = region.getBoundingClientRect();
            const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            if (box.width > 8 && hit && hit.closest('a.region') === region) return region;
        }
        return null;""")
    check(target is not None, "no region's shape holds the middle of its box")
    clicked = target.get_attribute("data-code")
    ActionChains(area.driver).move_to_element(target.find_element(By.TAG_NAME, "path")).click().perform()
    area.until(f"a click on {clicked} opens its page",
               lambda: area.driver.current_url.endswith(f"/explore/regions/{clicked}"))
    area.console()
    area.open("/explore/maps/tgs00010")
    values_lead_to_their_rows(area, "the map page")


def compare_page(area):
    area.open("/explore/compare?regions=DE21,FR10,ITC4,ES30&dataset=tgs00010")
    bars = css(area, "svg.bars a.bar")
    rows = css(area, '[data-testid="compare-table"] tbody tr')
    check(len(bars) == 4 and len(rows) == 4, f"{len(bars)} bars and {len(rows)} rows for 4 regions")
    area.screenshot("explore-compare")
    area.console()
    values_lead_to_their_rows(area, "the compare page")


def matrix_page(area):
    query = "nuts_code=DE&level=2&datasets=tgs00010,tgs00007,tgs00109,demo_r_d3dens"
    area.open(f"/explore/matrix?{query}")
    cells = [c for c in css(area, "svg.heat a.cell") if int(c.get_attribute("data-n")) >= 3]
    check(cells, "the heat map has no cell with pairs")
    cell = cells[0]
    n = cell.get_attribute("data-n")
    area.screenshot("explore-matrix")
    area.driver.execute_script("arguments[0].scrollIntoView(); arguments[0].focus()", cell)
    cell.send_keys(Keys.ENTER)
    area.until("choosing a cell shows its scatter plot", lambda: css(area, "svg.scatter"))
    points = css(area, "svg.scatter a.point")
    check(str(len(points)) == n, f"the cell's n is {n} but its scatter plot has {len(points)} points")
    area.screenshot("explore-matrix-cell")
    area.console()
    values_lead_to_their_rows(area, "the matrix page")


def briefing_page(area, briefing_id):
    area.open(f"/explore/briefings/{briefing_id}")
    numbers = css(area, "section.briefing a.claim")
    check(numbers, "the briefing's text links no number to a claim")
    for number in numbers:
        target = urllib.parse.urlparse(number.get_attribute("href")).fragment
        claim = area.driver.find_element(By.ID, target)
        check(number.text in claim.text, f"{number.text} links to a claim reading {claim.text!r}")
    derived = css(area, 'li[data-kind="derived"]')
    check(derived and css(area, ".formula", derived[0]), "no derived claim shows its formula")
    area.screenshot("explore-briefing")
    area.console()
    values_lead_to_their_rows(area, "the briefing page")


def citation_page(area):
    area.open("/explore/regions/DE21")
    href = css(area, "p.latest a.value")[0].get_attribute("href")
    area.driver.get(href)
    for testid in ["citation-id", "value", "how-to-verify", "license"]:
        check(area.testids(testid), f"the citation page shows no {testid}")
    area.screenshot("explore-citation")
    area.console()
    return urllib.parse.urlparse(href).path


def sign_in(area, given):
    area.open("/account/login")
    area.testid("login-email").send_keys(given["email"])
    area.testid("login-password").send_keys(given["password"], Keys.ENTER)
    area.until("signing in lands on the keys page", lambda: area.driver.current_url.endswith("/account/api-keys"))


def narrow_screen(area, pages):
    area.driver.set_window_size(390, 844)
    for path, name in pages:
        area.open(path)
        overflow = area.driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        check(overflow <= 0, f"{path} scrolls sideways by {overflow} px on a 390 px screen")
        area.screenshot(f"{name}-narrow")
    area.driver.set_window_size(1280, 1000)
    area.console()


def signed_out(area, given):
    area.open("/account/api-keys")
    area.testid("sign-out").click()
    area.until("signing out lands on the sign-in page", lambda: area.driver.current_url.endswith("/account/login"))
    area.open("/explore/regions/DE21")
    check(given["private_title"] not in area.driver.page_source,
          "after signing out the region page still shows the account's dataset")
    area.console()


def another_account(area, given):
    """Another account's browser sees its own private dataset and none of the first account's:
    not on the region page, not as a map, not its briefing."""
    other = given["other"]
    sign_in(area, other)
    area.open("/explore/regions/DE21")
    source = area.driver.page_source
    check(other["private_title"] in source, "the other account does not see its own dataset")
    check(given["private_title"] not in source, "the other account sees the first account's dataset")
    area.open(f"/explore/maps/{other['private_code']}")
    check(css(area, "figure.choropleth a.region"), "the other account's dataset draws no map")
    area.console()
    for path in [f"/explore/maps/{given['private_code']}", f"/explore/briefings/{given['briefing_id']}"]:
        area.open(path)
        heading = area.driver.find_element(By.TAG_NAME, "h1").text
        check(heading.startswith("404") and area.testids("error-message"),
              f"the other account reads {path}: {heading!r}")
        check(given["private_title"] not in area.driver.page_source, f"{path} shows the first account's dataset")
    area.console(allowed_statuses=(404,))


def main():
    given = json.load(open(sys.argv[1]))
    area = Area(browser(), given)
    narrow = [
        ("/explore?q=Bayern", "explore-search"),
        ("/explore/regions/DE21", "explore-region"),
        ("/explore/maps/tgs00010", "explore-map"),
        ("/explore/compare?regions=DE21,FR10,ITC4,ES30&dataset=tgs00010", "explore-compare"),
        ("/explore/matrix?nuts_code=DE&level=2&datasets=tgs00010,tgs00007,tgs00109,demo_r_d3dens", "explore-matrix"),
        (f"/explore/briefings/{given['briefing_id']}", "explore-briefing"),
    ]
    with Steps(area) as steps:
        for steps.name, run in [
            ("sign in", lambda: sign_in(area, given)),
            ("find a region", lambda: find_a_region(area)),
            ("region page", lambda: region_page(area, given["private_title"])),
            ("map page", lambda: map_page(area)),
            ("compare page", lambda: compare_page(area)),
            ("matrix page", lambda: matrix_page(area)),
            ("briefing page", lambda: briefing_page(area, given["briefing_id"])),
            ("citation page", lambda: narrow.append((citation_page(area), "explore-citation"))),
            ("narrow screen", lambda: narrow_screen(area, narrow)),
            ("signed out", lambda: signed_out(area, given)),
            ("another account", lambda: another_account(area, given)),
        ]:
            run()


if __name__ == "__main__":
    main()
