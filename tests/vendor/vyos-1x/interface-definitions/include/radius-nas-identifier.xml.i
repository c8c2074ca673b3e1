<!-- include start from radius-nas-identifier.xml.i -->
<leafNode name="nas-identifier">
  <properties>
    <help>NAS-Identifier attribute sent to RADIUS</help>
  </properties>
</leafNode>
<!-- include end -->
