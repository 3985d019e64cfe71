"""The static reference site: pages, links, search data, and a preview server.

Its modules import one way (a contract of pyproject.toml): from the bottom,

- languages: the site's languages, the switch between them, the templates' catalogs;
- views, paths, pages, links: what the templates receive; where the pages are; which page each entry is on; entry texts as HTML;
- templates, setup_page, search_data: the jinja2 environment and rendering a page; a game's setup page; the search's data files;
- arrangement, search_languages: `Site`, the corpus arranged for the pages, with each game's A–Z layout; what the
  search shows of a result in another language (its own data files, apart from the ranking's);
- game_pages, az_pages, writing: a game's pages of entries; its A–Z pages; checking the output folder and swapping a built site in;
- build, server: `build`, which renders every file and writes them; serving a built site.
"""
