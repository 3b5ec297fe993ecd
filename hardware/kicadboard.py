"""A KiCad board built item by item with pcbnew's Python API, for the boards this project
generates (the sensor strip, hardware/pcb.py; the routed boards, hardware/routedpcb.py):
nets by name, tracks, vias, unplated mounting holes, lines and texts on any layer, the
outline. Identifiers are seeded, so the same sources give the same file."""
from __future__ import annotations


class KiBoard:
    def __init__(self, pcbnew, seed: int, edge_clearance: float, thickness: float):
        pcbnew.KIID.SeedGenerator(seed)
        self.pcbnew = pcbnew
        self.board = pcbnew.BOARD()
        self.mm = pcbnew.FromMM
        ds = self.board.GetDesignSettings()
        ds.m_CopperEdgeClearance = self.mm(edge_clearance)
        ds.SetBoardThickness(self.mm(thickness))
        self._nets = {}

    def pt(self, x, y):
        return self.pcbnew.wxPoint(self.mm(x), self.mm(y))

    def net(self, name):
        if name not in self._nets:
            self._nets[name] = self.pcbnew.NETINFO_ITEM(self.board, name)
            self.board.Add(self._nets[name])
        return self._nets[name]

    def track(self, x1, y1, x2, y2, layer: str, net: str, width: float):
        """A track on the front ("F") or back ("B") copper."""
        t = self.pcbnew.PCB_TRACK(self.board)
        t.SetStart(self.pt(x1, y1))
        t.SetEnd(self.pt(x2, y2))
        t.SetWidth(self.mm(width))
        t.SetLayer(self.pcbnew.F_Cu if layer == "F" else self.pcbnew.B_Cu)
        t.SetNet(self.net(net))
        self.board.Add(t)

    def via(self, x, y, net: str, size: float, drill: float):
        v = self.pcbnew.PCB_VIA(self.board)
        v.SetPosition(self.pt(x, y))
        v.SetWidth(self.mm(size))
        v.SetDrill(self.mm(drill))
        v.SetLayerPair(self.pcbnew.F_Cu, self.pcbnew.B_Cu)
        v.SetNet(self.net(net))
        self.board.Add(v)

    def hole(self, ref: str, value: str, x, y, diameter: float):
        """An unplated hole as a footprint of its own (its reference and value hidden)."""
        p = self.pcbnew
        fp = p.FOOTPRINT(self.board)
        fp.SetReference(ref)
        fp.SetValue(value)
        fp.Reference().SetVisible(False)
        fp.Value().SetVisible(False)
        fp.SetPosition(self.pt(x, y))
        self.board.Add(fp)
        pad = p.PAD(fp)
        pad.SetAttribute(p.PAD_ATTRIB_NPTH)
        pad.SetShape(p.PAD_SHAPE_CIRCLE)
        pad.SetSize(p.wxSize(self.mm(diameter), self.mm(diameter)))
        pad.SetDrillSize(p.wxSize(self.mm(diameter), self.mm(diameter)))
        pad.SetLayerSet(pad.UnplatedHoleMask())
        pad.SetPosition(self.pt(x, y))
        fp.Add(pad)

    def segment(self, x1, y1, x2, y2, layer, width: float):
        e = self.pcbnew.PCB_SHAPE(self.board)
        e.SetShape(self.pcbnew.SHAPE_T_SEGMENT)
        e.SetStart(self.pt(x1, y1))
        e.SetEnd(self.pt(x2, y2))
        e.SetLayer(layer)
        e.SetWidth(self.mm(width))
        self.board.Add(e)

    def text(self, x, y, words: str, size: float, thickness: float, layer, left=False, mirrored=False):
        p = self.pcbnew
        t = p.PCB_TEXT(self.board)
        t.SetText(words)
        t.SetPosition(self.pt(x, y))
        t.SetLayer(layer)
        if mirrored:
            t.SetMirrored(True)
        t.SetTextSize(p.wxSize(self.mm(size), self.mm(size)))
        t.SetTextThickness(self.mm(thickness))
        if left:
            t.SetHorizJustify(p.GR_TEXT_HJUSTIFY_LEFT)
        self.board.Add(t)

    def outline(self, width: float, height: float):
        """The board's edge: a rectangle from (0, 0)."""
        w, h = width, height
        for x1, y1, x2, y2 in ((0, 0, w, 0), (w, 0, w, h), (w, h, 0, h), (0, h, 0, 0)):
            self.segment(x1, y1, x2, y2, self.pcbnew.Edge_Cuts, 0.1)
