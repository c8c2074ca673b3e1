<!-- include start from interface/vrf.xml.i -->
<leafNode name="vrf">
  <properties>
    <help>VRF instance name</help>
    <valueHelp>
      <format>txt</format>
      <description>VRF instance name</description>
    </valueHelp>
    <completionHelp>
      <path>vrf name</path>
    </completionHelp>
    #include <include/constraint/vrf.xml.i>
  </properties>
</leafNode>
<!-- include end -->
