"""Rules references in PDF: their text, laid out as plain text, imported and checked against (rulebot.corpus.pdf)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import MINIMAL

from rulebot.corpus.documents import read_document
from rulebot.errors import CurationError

PROSE = " ".join(["Captains sail their ferries between the docks of every colour and trade cargo as they go."] * 4)


def pdf(pages: list[list[tuple[str, float]]]) -> bytes:
    """A PDF written by hand: each page a list of (line, how far below the line before it), in Helvetica 11 (a line
    above the one before, at -drop, starts a second column)."""
    objects: list[bytes] = [b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    streams = []
    for lines in pages:
        ops = ["BT /F1 11 Tf 72 770 Td"]
        for text, drop in lines:
            escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"{0 if drop >= 0 else 250} {-drop} Td ({escaped}) Tj")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        streams.append(len(objects))
    parent = len(objects) + len(pages) + 1
    kids = []
    for content in streams:
        objects.append(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                       b"/Resources << /Font << /F1 1 0 R >> >> >>" % (parent, content))
        kids.append(len(objects))
    objects.append(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids)))
    objects.append(b"<< /Type /Catalog /Pages %d 0 R >>" % parent)
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    table = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    out.write(b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, len(objects), table))
    return out.getvalue()


def wrapped(text: str, width: int = 80) -> list[str]:
    """A paragraph's lines as a page sets them."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line]


def page(header: str, number: int, paragraphs: list[str], *, number_first: bool = False) -> list[tuple[str, float]]:
    """A page: a running header, paragraphs (a wider gap between them than between their lines), a page number at
    the foot (drawn last, or first, right after the header, as page layouts often draw them)."""
    lines = [(header, 0.0)]
    body = [(line, 30.0 if at == 0 else 13.0) for paragraph in paragraphs for at, line in enumerate(wrapped(paragraph))]
    if number_first:
        # the number at the foot of the page (y 40), then back up to the body
        return [*lines, (str(number), 730.0), (body[0][0], -700.0), *body[1:]]
    return [*lines, *body, (str(number), 40.0)]


RULEBOOK = [
    page("Toy Rulebook", 1, ["SETUP", f"Each captain takes two ferries. {PROSE}", "Docks", "Each dock holds two ferries."]),
    page("Toy Rulebook", 2, ["PLAYING THE GAME", f"Captains take turns. {PROSE} A captain who has moved a ferry"], number_first=True),
    page("Toy Rulebook", 3, ["may not move it again this turn.", "END OF THE GAME", f"The game ends when a ferry sinks. {PROSE}"]),
    page("Toy Rulebook", 4, ["SCORING", "Each ferry afloat is worth one point.", "Ties", "Tied captains share the win."]),
]


@pytest.fixture
def rulebook(tmp_path: Path) -> Path:
    path = tmp_path / "rulebook.pdf"
    path.write_bytes(pdf(RULEBOOK))
    return path


def test_text_of_a_pdf_is_laid_out_in_paragraphs(rulebook: Path):
    """Lines further apart than lines of text are paragraphs apart (on a page of short paragraphs too); the running
    header and the page numbers are no text, wherever the page draws them; a sentence going on over a page goes on."""
    text = read_document(rulebook)
    assert text.rstrip().endswith("SCORING\n\nEach ferry afloat is worth one point.\n\nTies\n\nTied captains share the win.")
    paragraphs = [p.replace("\n", " ") for p in text.strip().split("\n\n")]
    assert paragraphs[:4] == ["SETUP", f"Each captain takes two ferries. {PROSE}", "Docks", "Each dock holds two ferries."]
    assert "Toy Rulebook" not in text and not any(line.strip().isdigit() for line in text.splitlines())
    assert f"Captains take turns. {PROSE} A captain who has moved a ferry may not move it again this turn." in paragraphs


def test_a_pdf_rulebook_is_imported_as_its_text_would_be(run_cli, rulebook: Path):
    """`rulebot import rules.pdf` drafts the rulebook's sections, as its text in plain text would be."""
    result = run_cli("--no-shipped", "--corpus", str(MINIMAL), "import", str(rulebook), "-g", "lantern-harbor", "-s", "rulebook")
    assert result.exit_code == 0, result.output
    assert "Drafted 6 entries from rulebook.pdf" in result.stderr
    assert "title: Docks\nkind: setup\nsection: Setup > Docks\n" in result.stdout
    assert "may not move it again this turn." in result.stdout


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"%PDF-1.4\nthis is no PDF at all\n", "not a PDF that can be read"),
        (pdf([[]]), "no text could be read from the PDF (a scan, or damaged pages?)"),
    ],
    ids=["damaged", "no text"],
)
def test_a_pdf_that_cannot_be_read_says_why(run_cli, tmp_path: Path, data: bytes, message: str):
    """A damaged PDF, or one with no text (a scan), is a one-line error (exit 2), not a traceback."""
    path = tmp_path / "rules.pdf"
    path.write_bytes(data)
    with pytest.raises(CurationError, match=message.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        read_document(path)
    result = run_cli("--no-shipped", "--corpus", str(MINIMAL), "import", str(path), "-g", "lantern-harbor", "-s", "rulebook")
    assert result.exit_code == 2
    assert f"Error: {path}: {message}" in result.output
    assert "Traceback" not in result.output


def test_a_locked_pdf_says_so(run_cli, tmp_path: Path):
    """A PDF locked by a password says so."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf(RULEBOOK))))
    writer.encrypt("secret", algorithm="RC4-128")
    path = tmp_path / "locked.pdf"
    with path.open("wb") as out:
        writer.write(out)
    result = run_cli("--no-shipped", "--corpus", str(MINIMAL), "import", str(path), "-g", "lantern-harbor", "-s", "rulebook")
    assert result.exit_code == 2
    assert "the PDF is locked by a password: unlock it first" in result.output


def test_check_sources_reads_a_pdf_copy(tmp_path: Path, rulebook: Path):
    """`check --sources` finds a source's copy in PDF (<id>.pdf) and the sections cited in it."""
    from rulebot.corpus import citations

    copy = tmp_path / "sources" / "rulebook.pdf"
    copy.parent.mkdir()
    copy.write_bytes(rulebook.read_bytes())
    assert citations.find_document(copy.parent, "lantern-harbor", "rulebook") == copy
    document = citations.Document(read_document(copy), copy.name)
    assert len(document.locate("End of the game")) == 1
    assert len(document.locate("Docks", ["Setup"])) == 1


def test_a_second_column_starts_a_paragraph(tmp_path: Path):
    """A page in two columns: the second column's first line, higher up than the line before, starts a paragraph."""
    path = tmp_path / "columns.pdf"
    path.write_bytes(pdf([[("Docks", 0), ("Each dock holds two ferries.", 13), ("Tides", -26), ("The tide turns each round.", 13)]]))
    assert read_document(path).split("\n\n") == ["Docks\nEach dock holds two ferries.", "Tides\nThe tide turns each round.\n"]


def test_a_short_document_keeps_its_first_lines(tmp_path: Path):
    """Three pages opening alike are no running header: a short document keeps them (a heading may open each)."""
    path = tmp_path / "errata.pdf"
    path.write_bytes(pdf([[("Example", 0), (f"Page {n} shows a ferry.", 13)] for n in range(1, 4)]))
    assert read_document(path).count("Example") == 3


@pytest.mark.parametrize("line", ["II", "Scenario 2", "civil"])
def test_a_heading_at_the_top_of_a_page_is_no_page_number(tmp_path: Path, line: str):
    """A part in capital roman numerals, a numbered heading, a word of the letters of roman numerals: kept."""
    path = tmp_path / "book.pdf"
    path.write_bytes(pdf([[("Intro", 0), ("Sail well.", 13)], [(line, 0), ("Text of the part.", 13)]]))
    assert line in read_document(path).splitlines()


def test_a_pdf_named_as_text_says_so(run_cli, tmp_path: Path):
    """A PDF named .md or .txt is not read as text, nor a text starting with "%PDF-" as a PDF."""
    named = tmp_path / "rules.md"
    named.write_bytes(pdf(RULEBOOK))
    with pytest.raises(CurationError, match=r"a PDF: name it rules\.pdf"):
        read_document(named)
    note = tmp_path / "note.md"
    note.write_text("%PDF-1.7 is how every PDF starts.\n", encoding="utf-8")
    assert read_document(note) == "%PDF-1.7 is how every PDF starts.\n"


def test_an_aes_pdf_without_its_library_says_what_to_install(run_cli, tmp_path: Path, monkeypatch):
    """A PDF encrypted with AES needs the `cryptography` package to be read: without it, the error says so."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.errors import DependencyError

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf(RULEBOOK))))
    writer.encrypt("", "owner", algorithm="RC4-128")  # (writing AES needs the package too: its reading is stood in for)
    path = tmp_path / "aes.pdf"
    with path.open("wb") as out:
        writer.write(out)

    def missing(*_args, **_kwargs):
        raise DependencyError("cryptography>=3.1 is required for AES algorithm")

    monkeypatch.setattr(PdfReader, "decrypt", missing)
    result = run_cli("--no-shipped", "--corpus", str(MINIMAL), "import", str(path), "-g", "lantern-harbor", "-s", "rulebook")
    assert result.exit_code == 2
    assert "the PDF is encrypted with AES: reading it needs the `cryptography` package" in result.output


@pytest.mark.parametrize(("limit", "value", "message"), [("MAX_PAGES", 2, "more than 2 pages"), ("MAX_SECONDS", -1.0, "reading its text took more than")])
def test_a_pdf_too_long_to_read_says_so(monkeypatch, rulebook: Path, limit: str, value: float, message: str):
    """A PDF of too many pages, or whose pages take too long to read (a content stream that decodes to a great
    deal), is refused with a message rather than read for minutes."""
    from rulebot.corpus import pdf as reading

    monkeypatch.setattr(reading, limit, value)
    with pytest.raises(CurationError, match=message):
        read_document(rulebook)


def test_headings_that_open_every_page_under_its_title_are_kept(tmp_path: Path):
    """A scenario book: each page a scenario's title, then "Setup" and "Victory" headings; the same headings on every
    page are the rules' own, not a running header (only a page's very top or bottom line may be one)."""
    pages = [[(f"The {name} Crossing", 0), ("Setup", 30), ("Each captain takes two ferries.", 30), ("Victory", 30), ("The first to dock wins.", 30)]
             for name in ("Inland", "Northern", "Southern", "Eastern", "Western", "Misty")]
    path = tmp_path / "scenarios.pdf"
    path.write_bytes(pdf(pages))
    lines = read_document(path).splitlines()
    assert lines.count("Setup") == 6 and lines.count("Victory") == 6


def test_a_running_header_with_its_chapter_and_page_is_left_out(tmp_path: Path):
    """A header naming its chapter and the page ("Chapter 2: Docks 5") runs over the chapter's pages only."""
    pages = [page(f"Chapter {1 + n // 5}: Docks {n + 1}", n + 1, [f"Text of page {n + 1}. {PROSE}"]) for n in range(10)]
    path = tmp_path / "book.pdf"
    path.write_bytes(pdf(pages))
    assert "Chapter" not in read_document(path)


@pytest.mark.parametrize("leading", [20.0, 22.0])
def test_double_spaced_text_keeps_its_paragraphs(tmp_path: Path, leading: float):
    """Lines one and a half or two lines apart (11-point letters, 20 or 22 points) are lines, not paragraphs."""
    lines = [(line, leading if at else 0.0) for at, line in enumerate(wrapped(f"Each captain takes two ferries. {PROSE}"))]
    lines += [(line, 2 * leading if at == 0 else leading) for at, line in enumerate(wrapped(f"The game ends when a ferry sinks. {PROSE}"))]
    path = tmp_path / "spaced.pdf"
    path.write_bytes(pdf([lines]))
    assert len(read_document(path).strip().split("\n\n")) == 2
