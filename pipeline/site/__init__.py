"""The rating site: the pages a federation publishes from its history (home, a page per list
month, top lists, a profile per player, each period's calculation, search), built once as plain
contexts (:mod:`.pages`) and rendered twice, as HTML through Jinja2 and as JSON, live by
``fiderate serve`` and as files by ``fiderate site`` (:mod:`.static_site`).

Every page has one address, relative to the site's root (:mod:`.addresses`), the same live
(under ``/site/``) and on disk, so the same relative links work from a web server and from a
folder opened with ``file://``. Every page is built for one rating ``kind`` (standard, rapid,
blitz); a history holds one kind today, which answers for that kind.
"""
