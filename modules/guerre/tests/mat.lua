-- La Guerre de l'Empereur: the Player Mats (2.5), hidden from the other players.

local play = include("tests/lib/play.lua")
local mat = include("rules/mat.lua")

-- Rule 2.5: a Corps holds three divisions; France's Corps 1-4 a fourth, of cavalry.
test("2.5 three divisions a Corps, and France's Corps 1-4 a fourth cavalry", function(t)
  t:eq(mat.most("FR", 1, "cavalry", { infantry = 3 }), 1, "the extra cavalry")
  t:eq(mat.most("FR", 1, "artillery", { infantry = 3, cavalry = 1 }), 0)
  t:eq(mat.most("FR", 2, "artillery", { infantry = 1, cavalry = 2 }), 1, "1 + 2 + 1: the fourth is a cavalry")
  t:eq(mat.most("FR", 5, "cavalry", { infantry = 3 }), 0, "Corps 5 has three boxes")
  t:eq(mat.most("AU", 1, "artillery", { infantry = 1, cavalry = 1 }), 1)
end)

-- Rules 2.5 and 5.51: the composition of a player's Corps is not open to the others. Set-up:
-- in its Fall 1805 turn France puts 2 infantry, 1 cavalry and 1 artillery in Corps #1.
-- Expected: France's private state and view hold it; Britain's view, log and JSON show only
-- that France adjusted its mat.
test("2.5 a Player Mat is hidden from the other players", function(t)
  local g = play.started(t, "four-player")
  play.to_turn(g, "FR")
  g:act("mat")
  g:act("set", 1)
  t:eq(g:prompt().actions[1].max, 3, "infantry")
  g:act("set", 2)
  t:eq(g:prompt().actions[1].max, 2, "cavalry: the fourth box takes one")
  -- Halfway, the figures are France's alone: not in the form's locals, which all read.
  local flow = g:json("GB").flow
  t:eq(flow[#flow].state, "form")
  t:eq(flow[#flow].locals.values, {})
  t:eq(g:private("FR").form_values, { corps = 1, infantry = 2 })
  g:act("set", 1)
  t:eq(g:prompt().actions[1].max, 1, "artillery")
  g:act("set", 1)
  t:eq(g:state(), "player_turn")
  local corps = { infantry = 2, cavalry = 1, artillery = 1 }
  t:eq(g:private("FR").mat, { ["1"] = corps })
  t:eq(g:json("FR").view["Player Mat"], { ["Corps #1"] = "2 infantry, 1 cavalry, 1 artillery" })
  t:eq(g:json("GB").view["Player Mat"], nil)
  local seen = table.concat(g:log("GB"), "\n")
  t:ok(seen:find("France has adjusted its Player Mat.", 1, true), seen)
  t:ok(not seen:find("Corps #1", 1, true), seen)
  local mine = table.concat(g:log("FR"), "\n")
  t:ok(mine:find("Corps #1: 2 infantry, 1 cavalry, 1 artillery.", 1, true), mine)
  -- Nothing of it in what Britain reads of the game: no locals, no figures.
  local function walk(v, path)
    if type(v) == "table" then
      for k, x in pairs(v) do
        walk(x, path .. "." .. tostring(k))
      end
    elseif type(v) == "string" then
      t:ok(not v:find("Corps #1", 1, true), path .. ": " .. v)
    end
  end
  walk(g:json("GB"), "GB")
end)
