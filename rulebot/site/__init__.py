"""The static reference site: pages, links, search data, and a preview server."""
